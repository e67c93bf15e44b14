// The event-type registry: definitions (description, versioned JSON Schemas, examples, money rule) and data validation.
import { createHash } from 'node:crypto';
import { type Actor, type EventTypeRow, fail, isMoneyEvent } from '@hookline/core';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fieldError, pointerToken } from '../http/validation.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export interface EventTypeVersion {
  schema: Record<string, unknown> | boolean;
  example?: unknown;
}

export interface EventTypeDefinition {
  description: string;
  versions: Record<string, EventTypeVersion>;
  /** true/false: every event of the type is (not) money; {field, in}: like a configured money rule. */
  money?: boolean | { field?: string; in?: string[] };
  /** The Svix-compatible API's flags (docs/svix-compatibility.md#event-types); shown there, not by /v1. */
  svix?: { archived: boolean; deprecated: boolean; groupName: string | null; featureFlag: string | null };
}

export interface EventTypeView extends EventTypeDefinition {
  name: string;
  updatedAt: number;
}

/** Where definitions are kept: the engine's event-type operations (`engine.eventTypes`). */
export interface EventTypeRows {
  put(row: EventTypeRow, actor?: Actor): Promise<void>;
  get(name: string): Promise<EventTypeRow | null>;
  list(): Promise<EventTypeRow[]>;
}

/** How long a definition read from the store is reused; other API processes may change it. */
const CACHE_MS = 1000;

export class EventTypeRegistry {
  readonly #ajv: Ajv;
  readonly #validators = new Map<string, ValidateFunction>();
  /** Each cached definition's version → its compiled validator: an event's check neither hashes nor compiles its schema. */
  readonly #byVersion = new WeakMap<EventTypeVersion, ValidateFunction>();
  readonly #cache = new Map<string, { at: number; view: EventTypeView | null }>();

  constructor(private readonly rows: EventTypeRows) {
    this.#ajv = new Ajv({ allErrors: false, strict: false });
    addFormats(this.#ajv);
  }

  async get(name: string): Promise<EventTypeView | null> {
    const hit = this.#cache.get(name);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.view;
    const row = await this.rows.get(name);
    const view = row
      ? {
          name: row.name,
          updatedAt: row.updatedAt,
          ...(row.definition as EventTypeDefinition),
          description: row.description,
        }
      : null;
    this.#cache.set(name, { at: Date.now(), view });
    return view;
  }

  async list(): Promise<EventTypeView[]> {
    return (await this.rows.list()).map((row) => ({
      name: row.name,
      updatedAt: row.updatedAt,
      ...(row.definition as EventTypeDefinition),
      description: row.description,
    }));
  }

  /** Checks a definition (every schema compiles, every example matches) and stores it. */
  async put(name: string, def: EventTypeDefinition, now: number, actor?: Actor): Promise<EventTypeView> {
    const versions = Object.entries(def.versions);
    if (versions.length === 0) throw fieldError('body', '/versions', 'must define at least one version');
    for (const [version, v] of versions) {
      let validate: ValidateFunction;
      try {
        validate = this.#compile(v.schema);
      } catch (err) {
        throw fieldError(
          'body',
          `/versions/${pointerToken(version)}/schema`,
          `is not a valid JSON Schema: ${(err as Error).message}`,
        );
      }
      if (v.example !== undefined && !validate(v.example)) {
        const e = validate.errors?.[0];
        throw fieldError(
          'body',
          `/versions/${pointerToken(version)}/example${e?.instancePath ?? ''}`,
          `does not match its schema: ${e?.message ?? 'invalid'}`,
        );
      }
    }
    const definition: EventTypeDefinition = {
      description: def.description,
      versions: def.versions,
      ...(def.money !== undefined ? { money: def.money } : {}),
      ...(def.svix !== undefined ? { svix: def.svix } : {}),
    };
    await this.rows.put({ name, description: def.description, definition, updatedAt: now }, actor);
    const view: EventTypeView = { name, updatedAt: now, ...definition };
    this.#cache.set(name, { at: Date.now(), view });
    return view;
  }

  /**
   * Validates an event's data against its type's schema for that version. Unknown types pass unless `strict`;
   * a known type with an unknown version is refused (its contract says which versions exist).
   */
  async check(type: string, version: string, data: unknown, strict: boolean): Promise<void> {
    this.#validate(type, await this.get(type), version, data, strict);
  }

  /**
   * As check(), when the type's definition is cached: true once decided (it throws as check() does), false when the
   * definition must be read first (then call check()). A batch checks its items without a promise each.
   */
  checkCached(type: string, version: string, data: unknown, strict: boolean): boolean {
    const hit = this.#cache.get(type);
    if (!hit || Date.now() - hit.at >= CACHE_MS) return false;
    this.#validate(type, hit.view, version, data, strict);
    return true;
  }

  #validate(type: string, def: EventTypeView | null, version: string, data: unknown, strict: boolean): void {
    if (!def) {
      if (strict) throw fail('unknown_event_type', { type });
      return;
    }
    const v = Object.hasOwn(def.versions, version) ? def.versions[version] : undefined;
    if (!v) throw fail('unknown_event_type', { type: `${type} version ${version}` });
    let validate = this.#byVersion.get(v);
    if (!validate) {
      validate = this.#compile(v.schema);
      this.#byVersion.set(v, validate);
    }
    if (!validate(data)) {
      const e = validate.errors?.[0];
      const path = e ? `/data${e.instancePath}` : '/data';
      const detail =
        e?.keyword === 'required'
          ? `missing required property ${String((e.params as { missingProperty?: string }).missingProperty)}`
          : e?.keyword === 'additionalProperties'
            ? `unexpected property ${String((e.params as { additionalProperty?: string }).additionalProperty)}`
            : (e?.message ?? 'invalid');
      throw fail('schema_validation_failed', { path, detail });
    }
  }

  /** The registry's money verdict for the engine's Ingest; reads only the cache warmed by check(). */
  moneyOverride = (type: string, data: unknown): boolean | undefined => {
    const money = this.#cache.get(type)?.view?.money;
    if (money === undefined) return undefined;
    if (typeof money === 'boolean') return money;
    return isMoneyEvent(
      [
        {
          type,
          ...(money.field !== undefined ? { field: money.field } : {}),
          ...(money.in !== undefined ? { in: money.in } : {}),
        },
      ],
      type,
      data,
    );
  };

  #compile(schema: EventTypeVersion['schema']): ValidateFunction {
    const key = createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
    let fn = this.#validators.get(key);
    if (!fn) {
      // An $id compiled twice would throw and a $schema naming another draft is refused: the body alone decides.
      const copy = typeof schema === 'object' ? { ...schema } : schema;
      if (typeof copy === 'object') {
        delete (copy as Record<string, unknown>).$id;
        delete (copy as Record<string, unknown>).$schema;
      }
      fn = this.#ajv.compile(copy);
      this.#validators.set(key, fn);
    }
    return fn;
  }
}
