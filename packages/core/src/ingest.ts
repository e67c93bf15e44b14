// Accepting events: build the fixed envelope bytes, fan out to subscribed endpoints, commit durably in groups.
import { hash } from 'node:crypto';
import type { Clock } from './clock.ts';
import { type Endpoint, type EventRecord, MAX_ORDERING_KEY_BYTES, type PayloadFormat } from './domain.ts';
import { fail, type HooklineError } from './errors.ts';
import { matchesFilter } from './filters/payload-filter.ts';
import { GroupCommit } from './group-commit.ts';
import { newId } from './ids.ts';
import type { IngestLimitValues, IngestRefusal } from './pacing/tenant-admission.ts';
import { isMoneyEvent } from './policy/money-rules.ts';
import type { MoneyRule } from './policy/types.ts';
import { isFsyncFailure, isStorageWriteError } from './store/storage-fault.ts';
import type { AcceptResult, IngestLimits, NewEvent, Store } from './store/store.ts';
import { traceContextOf } from './tracing/trace-context.ts';

export interface EventInput {
  event_id?: string;
  type: string;
  version?: string;
  occurred_at?: string;
  data: unknown;
  /** Orders this event's deliveries among the key's on endpoints with ordering `key` (docs/rules.md#ordered-delivery). */
  ordering_key?: string;
  /**
   * `raw` (the Svix-compatible API, docs/svix-compatibility.md#raw-payload): every attempt sends `data` itself as the
   * body, not the envelope. Absent: the envelope.
   */
  payload_format?: PayloadFormat;
  /** docs/rules.md#channels: an endpoint with channels gets only events sharing one of them. Absent: none. */
  channels?: string[];
  /**
   * The producer's W3C trace context (docs/observability.md#traces): stored with the event, continued by its attempts;
   * not part of the envelope. An invalid traceparent is ignored.
   */
  traceparent?: string;
  tracestate?: string;
}

export interface IngestOptions {
  store: Pick<Store, 'events' | 'catalog'>;
  clock: Clock;
  moneyRules: () => readonly MoneyRule[];
  /** Per event type: a money rule from the event-type registry overrides the configured rules. */
  isMoneyOverride?: (type: string, data: unknown) => boolean | undefined;
  /** How long a tenant's endpoint list may be reused for fan-out before it is read again. */
  endpointCacheMs?: number;
  /** Every tenant's limits where it has none of its own (docs/rules.md#tenant-limits); unset: unlimited. */
  limitDefaults?: IngestLimitValues;
}

/** docs/rules.md#channels: an endpoint without channels takes every event; one with channels, events sharing one. */
export function inChannels(
  endpointChannels: readonly string[] | null | undefined,
  channels: readonly string[],
): boolean {
  if (!endpointChannels || endpointChannels.length === 0) return true;
  return channels.some((c) => endpointChannels.includes(c));
}

/** Does an endpoint subscribed to `patterns` want `type`? Exact names and `prefix.*` wildcards; [] means all. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  if (patterns.length === 0) return true;
  for (const p of patterns) {
    if (p === type || p === '*') return true;
    if (p.endsWith('.*') && type.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

export class Ingest {
  readonly #commit: GroupCommit<NewEvent, AcceptResult>;
  readonly #endpoints = new Map<string, { at: number; list: Promise<Endpoint[]> }>();
  readonly #cacheMs: number;

  constructor(private readonly o: IngestOptions) {
    this.#cacheMs = o.endpointCacheMs ?? 1000;
    // Two batches may commit at once: the next one's inserts run while the previous one's fsync completes.
    this.#commit = new GroupCommit((items) => this.#flush(items), 500, 0, 0, 2);
  }

  /** Forget a tenant's cached endpoints (called on every endpoint change in this process). */
  invalidate(tenantId: string): void {
    this.#endpoints.delete(tenantId);
  }

  async #tenantEndpoints(tenantId: string): Promise<Endpoint[]> {
    const now = Date.now(); // cache freshness is wall-clock, not domain time
    const hit = this.#endpoints.get(tenantId);
    if (hit && now - hit.at < this.#cacheMs) return hit.list;
    // The promise is cached, so a burst of concurrent events for one tenant reads its endpoints once.
    const list = this.o.store.catalog.listTenantEndpoints(tenantId);
    const entry = { at: now, list };
    this.#endpoints.set(tenantId, entry);
    list.catch(() => {
      if (this.#endpoints.get(tenantId) === entry) this.#endpoints.delete(tenantId);
    });
    return list;
  }

  /** Builds the event and its deliveries; nothing is written yet. */
  async prepare(tenantId: string, input: EventInput): Promise<NewEvent> {
    const now = this.o.clock.now();
    const pk = newId('evt', now);
    const version = input.version ?? '1';
    const occurredAt = input.occurred_at ?? new Date(now).toISOString();
    const eventId = input.event_id ?? pk;
    // The envelope is fixed here: every attempt and every replay sends exactly these bytes.
    const orderingKey = input.ordering_key ?? null;
    if (orderingKey !== null && Buffer.byteLength(orderingKey) > MAX_ORDERING_KEY_BYTES)
      throw fail('ordering_key_too_long', { max: MAX_ORDERING_KEY_BYTES });
    const envelope =
      input.payload_format === 'raw' ? rawBodyOf(input) : envelopeOf(input, eventId, version, occurredAt);
    const body = envelope.body;
    // The key is not in the envelope, but it is part of what was sent: the same event_id with another key conflicts.
    // Events without a key hash exactly as before keys existed.
    const bodyHash =
      orderingKey === null ? envelope.bodyHash : hash('sha256', `${envelope.bodyHash}\n${orderingKey}`, 'base64url');
    const isMoney =
      this.o.isMoneyOverride?.(input.type, input.data) ?? isMoneyEvent(this.o.moneyRules(), input.type, input.data);
    const event: EventRecord = {
      id: pk,
      tenantId,
      eventId,
      type: input.type,
      version,
      occurredAt,
      body,
      payloadFormat: input.payload_format ?? 'envelope',
      isMoney,
      orderingKey,
      createdAt: now,
    };
    const trace = input.traceparent === undefined ? null : traceContextOf(input.traceparent, input.tracestate);
    if (trace !== null) {
      event.traceparent = trace.traceparent;
      event.tracestate = trace.tracestate;
    }
    const deliveries: NewEvent['deliveries'] = [];
    // What payload filters see (docs/filters.md): the envelope's fields, each endpoint's filter evaluated once here.
    const filtered = { event_id: eventId, type: input.type, version, occurred_at: occurredAt, data: input.data };
    for (const ep of await this.#tenantEndpoints(tenantId)) {
      if (!subscribes(ep.eventTypes, input.type)) continue;
      if (!inChannels(ep.channels, input.channels ?? [])) continue;
      if (ep.payloadFilter && !matchesFilter(ep.payloadFilter, filtered)) continue;
      const paused = ep.status === 'paused';
      const d: NewEvent['deliveries'][number] = {
        id: newId('dlv', now),
        endpointId: ep.id,
        status: paused ? 'skipped' : 'pending',
        nextAttemptAt: paused ? null : now,
      };
      // Only an endpoint that orders by key orders; an event without a key is unordered everywhere (docs/rules.md#ordered-delivery).
      if (orderingKey !== null && ep.ordering === 'key') d.orderingKey = orderingKey;
      deliveries.push(d);
    }
    return { event, bodyHash, deliveries };
  }

  /** Accepts one event; resolves once it is durably committed (grouped with concurrent calls). */
  async accept(tenantId: string, input: EventInput): Promise<AcceptResult> {
    return this.#commit.submit(await this.prepare(tenantId, input));
  }

  /** Accepts many events in one group commit; each slot is its result, or the error of that item alone. */
  async acceptMany(tenantId: string, inputs: EventInput[]): Promise<Array<AcceptResult | Error>> {
    const settled = await Promise.allSettled(inputs.map((i) => this.accept(tenantId, i)));
    return settled.map((s) =>
      s.status === 'fulfilled' ? s.value : s.reason instanceof Error ? s.reason : new Error(String(s.reason)),
    );
  }

  /** Ingest accepts under the tenants' limits (docs/rules.md#tenant-limits), at the time of the commit. */
  #limits(): IngestLimits {
    const d = this.o.limitDefaults;
    return {
      now: this.o.clock.now(),
      defaults: {
        eventsPerS: d?.eventsPerS ?? null,
        eventsPerDay: d?.eventsPerDay ?? null,
        maxPayloadBytes: d?.maxPayloadBytes ?? null,
      },
    };
  }

  async #flush(items: NewEvent[]): Promise<Array<AcceptResult | Error>> {
    try {
      return await this.o.store.events.acceptEvents(items, this.#limits());
    } catch (err) {
      // One bad item (its tenant deleted meanwhile) must not fail its neighbours: retry them one by one. Not after
      // a storage failure, which is nobody's item: a full disk fails them all again, and after a failed fsync a retry
      // would find the rows the unsynced commit left in the WAL and call them accepted duplicates.
      if (items.length === 1 || isFsyncFailure(err) || isStorageWriteError(err)) throw err;
      const out: Array<AcceptResult | Error> = [];
      for (const item of items) {
        try {
          out.push((await this.o.store.events.acceptEvents([item], this.#limits()))[0]);
        } catch (one) {
          out.push(one instanceof Error ? one : new Error(String(one)));
        }
      }
      return out;
    }
  }
}

/**
 * The envelope every attempt sends, and the idempotency hash of what the caller sent (type, version and occurred_at
 * as given, data), so a retried request without occurred_at still matches. The data is serialised once and spliced
 * into both texts; each equals JSON.stringify of the whole (same keys, same order), so nothing stored changes.
 */
export function envelopeOf(
  input: EventInput,
  eventId: string,
  version: string,
  occurredAt: string,
): { body: Buffer; bodyHash: string } {
  if (input.data === undefined) {
    // No data to splice (JSON.stringify would leave the key out): the plain way.
    return {
      body: Buffer.from(
        JSON.stringify({ event_id: eventId, type: input.type, version, occurred_at: occurredAt, data: input.data }),
      ),
      bodyHash: hash(
        'sha256',
        JSON.stringify([input.type, input.version ?? null, input.occurred_at ?? null, input.data]),
        'base64url',
      ),
    };
  }
  const data = JSON.stringify(input.data);
  const type = JSON.stringify(input.type);
  const body = Buffer.from(
    `{"event_id":${JSON.stringify(eventId)},"type":${type},"version":${JSON.stringify(version)},"occurred_at":${JSON.stringify(occurredAt)},"data":${data}}`,
  );
  const hashed = `[${type},${JSON.stringify(input.version ?? null)},${JSON.stringify(input.occurred_at ?? null)},${data}]`;
  // The one-shot hash: a Hash object per event cost more than hashing the kilobyte itself.
  return { body, bodyHash: hash('sha256', hashed, 'base64url') };
}

/**
 * The raw body (docs/svix-compatibility.md#raw-payload): the data's JSON text is what every attempt sends. The hash
 * covers the type and the data, so a retried request matches and one with another type conflicts.
 */
export function rawBodyOf(input: EventInput): { body: Buffer; bodyHash: string } {
  const data = JSON.stringify(input.data ?? null);
  const hashed = `raw\n${JSON.stringify(input.type)}\n${data}`;
  return { body: Buffer.from(data), bodyHash: hash('sha256', hashed, 'base64url') };
}

/** Turns a conflict or a tenant limit's refusal into the catalog error; passes the rest through. */
export function expectAccepted(r: AcceptResult): Exclude<AcceptResult, { kind: 'conflict' | 'limited' }> {
  if (r.kind === 'conflict') throw fail('event_conflict', { event_id: r.eventId });
  if (r.kind === 'limited') throw limitError(r);
  return r;
}

/** The catalog error of a tenant limit's refusal (docs/rules.md#tenant-limits), with its Retry-After. */
export function limitError(r: IngestRefusal): HooklineError {
  const retryAfterSec = Math.max(1, Math.ceil(r.retryAfterMs / 1000));
  if (r.limit === 'payload') return fail('payload_too_large', { max: r.max });
  if (r.limit === 'daily') return fail('tenant_quota_exceeded', { max: r.max }, { retryAfterSec });
  return fail('tenant_rate_limited', { max: r.max }, { retryAfterSec });
}
