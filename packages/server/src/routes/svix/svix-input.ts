// Reading Svix request bodies and queries by hand (these routes carry no JSON Schema: Svix's own document describes
// them): every wrong field is one 422 item naming it.
import { type ErrorDetail, fail, type Metadata } from '@hookline/core';

type Where = ErrorDetail['in'];

/** Collects every problem of one request part, then throws them together. */
export class FieldReader {
  readonly #problems: ErrorDetail[] = [];
  readonly #obj: Record<string, unknown>;

  constructor(
    value: unknown,
    readonly where: Where = 'body',
  ) {
    if (value === undefined || value === null) this.#obj = {};
    else if (typeof value !== 'object' || Array.isArray(value)) {
      this.#obj = {};
      this.#problems.push({ in: where, path: '', message: 'must be an object' });
    } else this.#obj = value as Record<string, unknown>;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.#obj, name) && this.#obj[name] !== undefined;
  }

  raw(name: string): unknown {
    return this.#obj[name];
  }

  #bad(name: string, message: string): undefined {
    this.#problems.push({ in: this.where, path: `/${name}`, message });
    return undefined;
  }

  string(name: string, o: { required?: boolean; max?: number; pattern?: RegExp } = {}): string | undefined {
    const v = this.#obj[name];
    if (v === undefined || v === null) return o.required ? this.#bad(name, 'field required') : undefined;
    if (typeof v !== 'string') return this.#bad(name, 'must be a string');
    if (o.required && v.length === 0) return this.#bad(name, 'must not be empty');
    if (o.max !== undefined && v.length > o.max) return this.#bad(name, `must be at most ${o.max} characters`);
    if (o.pattern && !o.pattern.test(v)) return this.#bad(name, `must match ${o.pattern.source}`);
    return v;
  }

  /** A string, or null when the field is null (absent: undefined). */
  nullableString(name: string, o: { max?: number; pattern?: RegExp } = {}): string | null | undefined {
    if (this.#obj[name] === null) return null;
    return this.string(name, o);
  }

  integer(name: string, o: { min?: number; max?: number } = {}): number | null | undefined {
    const v = this.#obj[name];
    if (v === undefined) return undefined;
    if (v === null) return null;
    const n = this.where === 'query' && typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n)) return this.#bad(name, 'must be an integer');
    if (o.min !== undefined && n < o.min) return this.#bad(name, `must be at least ${o.min}`);
    if (o.max !== undefined && n > o.max) return this.#bad(name, `must be at most ${o.max}`);
    return n;
  }

  boolean(name: string): boolean | undefined {
    const v = this.#obj[name];
    if (v === undefined || v === null) return undefined;
    if (this.where === 'query' && (v === 'true' || v === 'false')) return v === 'true';
    if (typeof v !== 'boolean') return this.#bad(name, 'must be a boolean');
    return v;
  }

  /** An array of strings; a query value given once is an array of one. Null reads as null. */
  strings(name: string, o: { max?: number; itemMax?: number; pattern?: RegExp } = {}): string[] | null | undefined {
    let v = this.#obj[name];
    if (v === undefined) return undefined;
    if (v === null) return null;
    if (this.where === 'query' && typeof v === 'string') v = v.split(',');
    if (!Array.isArray(v)) return this.#bad(name, 'must be an array of strings');
    if (o.max !== undefined && v.length > o.max) return this.#bad(name, `must have at most ${o.max} items`);
    for (const item of v) {
      if (typeof item !== 'string' || item.length === 0) return this.#bad(name, 'must be an array of strings');
      if (o.itemMax !== undefined && item.length > o.itemMax)
        return this.#bad(name, `items must be at most ${o.itemMax} characters`);
      if (o.pattern && !o.pattern.test(item)) return this.#bad(name, `items must match ${o.pattern.source}`);
    }
    return [...new Set(v as string[])];
  }

  /** String keys to string values (Svix's `metadata`, an endpoint's headers). */
  stringMap(name: string): Metadata | null | undefined {
    const v = this.#obj[name];
    if (v === undefined) return undefined;
    if (v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) return this.#bad(name, 'must be an object of strings');
    for (const x of Object.values(v)) if (typeof x !== 'string') return this.#bad(name, 'values must be strings');
    return { ...(v as Metadata) };
  }

  /** An ISO-8601 date-time as epoch milliseconds. */
  date(name: string): number | undefined {
    const v = this.#obj[name];
    if (v === undefined || v === null) return undefined;
    const ms = typeof v === 'string' ? Date.parse(v) : Number.NaN;
    if (Number.isNaN(ms)) return this.#bad(name, 'must be an ISO-8601 date-time');
    return ms;
  }

  /** Throws the 422 of every problem found so far (nothing when there is none). */
  done(): void {
    if (this.#problems.length === 0) return;
    const first = this.#problems[0];
    throw fail('invalid_request', { detail: `${first.path || 'body'} ${first.message}` }, { details: this.#problems });
  }
}

/** Svix's uid: 1–256 of letters, digits, `-`, `_` and `.`. */
export const UID_PATTERN = /^[a-zA-Z0-9\-_.]{1,256}$/;
/** Svix's channels. */
export const CHANNEL_PATTERN = /^[a-zA-Z0-9\-_.:]{1,128}$/;
