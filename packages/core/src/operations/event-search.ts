// Event search and export (docs/api.md#event-search): a tenant's events by type, accept-time window, event_id prefix
// and a payload filter, read from the store in bounded keyset batches, each hit with its deliveries' statuses.
import type { EventRecord } from '../domain.ts';
import { fail } from '../errors.ts';
import { matchesFilter, type PayloadFilter } from '../filters/payload-filter.ts';
import { idAt } from '../ids.ts';
import type { EventDeliveryStatus, EventScan, EventStore } from '../store/store.ts';

/** The bounds every search keeps; docs/api.md#event-search states them. */
export const EVENT_SEARCH_LIMITS = {
  /** A payload filter without since/until is refused when the tenant has more events (of the type) than this. */
  maxUnwindowedFilterScan: 100_000,
  /** Rows one store read returns: one short statement, so delivery's statements interleave (SQLite's one thread). */
  batchRows: 500,
  /** A page stops scanning after this many rows or this long, and answers what it found with a cursor to go on. */
  pageScanRows: 10_000,
  pageScanMs: 250,
} as const;

export interface EventSearchQuery {
  tenantId: string;
  type?: string;
  /** Accept time (the millisecond the event's id records, its created_at), inclusive. */
  since?: number;
  until?: number;
  /** The events whose event_id starts with this (byte order of event_id). */
  eventIdPrefix?: string;
  filter?: PayloadFilter | null;
}

export interface EventSearchHit {
  event: EventRecord;
  deliveries: EventDeliveryStatus[];
}

type SearchStore = Pick<EventStore, 'scanEvents' | 'eventDeliveryStatuses' | 'countEventsUpTo' | 'eventIdOf'>;

/** Where a scan stands: the last row read (its id, and its event_id when the scan goes by prefix). */
interface Position {
  id: string;
  eventId?: string;
}

/** The opaque cursor: the last row's position as base64url JSON. */
export function encodeSearchCursor(p: Position): string {
  return Buffer.from(JSON.stringify(p.eventId === undefined ? [p.id] : [p.id, p.eventId])).toString('base64url');
}

function decodeSearchCursor(cursor: string, byPrefix: boolean): Position {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw fail('invalid_cursor');
  }
  if (!Array.isArray(v) || typeof v[0] !== 'string' || !/^evt_[0-9A-Z]{26}$/.test(v[0])) throw fail('invalid_cursor');
  // A cursor from a search with a prefix goes on only with one (it carries the event_id), and the other way round.
  if (byPrefix !== (v.length === 2 && typeof v[1] === 'string')) throw fail('invalid_cursor');
  return byPrefix ? { id: v[0], eventId: v[1] as string } : { id: v[0] };
}

const ID_FLOOR = 'evt_';
const ID_CEILING = `evt_${'Z'.repeat(26)}`;

/** The window as an id range: ids sort by the accept millisecond they record. */
function idRange(q: EventSearchQuery): { fromId: string; toId: string } {
  return {
    fromId: q.since === undefined ? ID_FLOOR : idAt('evt', q.since),
    toId: q.until === undefined ? ID_CEILING : idAt('evt', q.until + 1),
  };
}

function envelopeMatches(filter: PayloadFilter, e: EventRecord): boolean {
  // The filter sees what it sees at fan-out: the envelope's fields, here read back from the stored bytes.
  return matchesFilter(filter, JSON.parse(e.body.toString('utf8')));
}

/** One store batch: every row read (for the position), and which of them the search selects. */
interface Batch {
  rows: Array<{ event: EventRecord; match: boolean; at: Position }>;
  /** Nothing follows this batch. */
  done: boolean;
}

/** The search's rows batch by batch from `start`, in its order: by id, or by event_id when it has a prefix. */
async function* batches(
  store: SearchStore,
  q: EventSearchQuery,
  start: Position | null,
  size: number,
): AsyncGenerator<Batch> {
  const { fromId, toId } = idRange(q);
  const filter = q.filter ?? null;
  const prefix = q.eventIdPrefix;
  let after = start;
  for (;;) {
    let scan: EventScan;
    if (prefix === undefined) {
      // One exclusive lower bound: the keyset, or just below the window's first id (its accept millisecond alone,
      // `evt_<time>`, sorts below every id of that millisecond and above every earlier one).
      const windowStart = fromId.slice(0, 14);
      const afterId = after !== null && after.id > windowStart ? after.id : windowStart;
      scan = { order: 'id', tenantId: q.tenantId, type: q.type ?? null, afterId, toId, limit: size };
    } else {
      scan = {
        order: 'event_id',
        tenantId: q.tenantId,
        fromEventId: prefix,
        afterEventId: after?.eventId ?? '',
        limit: size,
      };
    }
    const found = await store.scanEvents(scan);
    let done = found.length < size;
    const rows: Batch['rows'] = [];
    for (const event of found) {
      if (prefix !== undefined && !event.eventId.startsWith(prefix)) {
        // Byte order keeps a prefix's event_ids together: past the first that lacks it, none has it.
        done = true;
        break;
      }
      const inScope =
        prefix === undefined ||
        ((q.type === undefined || event.type === q.type) && event.id >= fromId && event.id < toId);
      const match = inScope && (filter === null || envelopeMatches(filter, event));
      rows.push({
        event,
        match,
        at: prefix === undefined ? { id: event.id } : { id: event.id, eventId: event.eventId },
      });
    }
    yield { rows, done };
    if (done || rows.length === 0) return;
    after = rows[rows.length - 1].at;
  }
}

async function withDeliveries(store: SearchStore, tenantId: string, events: EventRecord[]): Promise<EventSearchHit[]> {
  const statuses = await store.eventDeliveryStatuses(
    tenantId,
    events.map((e) => e.id),
  );
  const byEvent = new Map<string, EventDeliveryStatus[]>();
  for (const s of statuses) {
    const list = byEvent.get(s.eventPk);
    if (list) list.push(s);
    else byEvent.set(s.eventPk, [s]);
  }
  return events.map((event) => ({ event, deliveries: byEvent.get(event.id) ?? [] }));
}

/** A payload filter scans: without a window it must be over few enough events (docs/api.md#event-search). */
async function admit(store: SearchStore, q: EventSearchQuery): Promise<void> {
  if (!q.filter || q.since !== undefined || q.until !== undefined) return;
  const max = EVENT_SEARCH_LIMITS.maxUnwindowedFilterScan;
  if ((await store.countEventsUpTo(q.tenantId, q.type ?? null, max + 1)) > max)
    throw fail('event_search_window_required', { max });
}

/**
 * One page of at most `limit` hits. A page scans at most EVENT_SEARCH_LIMITS.pageScanRows rows or pageScanMs: a
 * sparse filter may answer fewer hits than `limit` (even none) with a cursor to go on; only a null cursor ends it.
 */
export async function searchEvents(
  store: SearchStore,
  q: EventSearchQuery,
  cursor: string | null,
  limit: number,
): Promise<{ items: EventSearchHit[]; nextCursor: string | null }> {
  const start = cursor === null ? null : decodeSearchCursor(cursor, q.eventIdPrefix !== undefined);
  await admit(store, q);
  const exact = q.eventIdPrefix === undefined && !q.filter;
  // Without a prefix or a filter the store selects exactly: one read of limit + 1 tells whether more follow.
  const size = exact ? limit + 1 : EVENT_SEARCH_LIMITS.batchRows;
  const began = performance.now();
  const hits: EventRecord[] = [];
  let scanned = 0;
  let next: Position | null = null;
  outer: for await (const batch of batches(store, q, start, size)) {
    for (let i = 0; i < batch.rows.length; i++) {
      const row = batch.rows[i];
      if (!row.match) continue;
      if (hits.length === limit) {
        next = batch.rows[i - 1].at; // a further hit exists: the page ends at the row before it
        break outer;
      }
      hits.push(row.event);
    }
    scanned += batch.rows.length;
    if (batch.done || batch.rows.length === 0) break;
    const last = batch.rows[batch.rows.length - 1].at;
    // Full, or out of budget: go on from the last row read (the next page may hold nothing more).
    const spent =
      scanned >= EVENT_SEARCH_LIMITS.pageScanRows || performance.now() - began >= EVENT_SEARCH_LIMITS.pageScanMs;
    if (hits.length === limit || spent) {
      next = last;
      break;
    }
  }
  const items = await withDeliveries(store, q.tenantId, hits);
  return { items, nextCursor: next === null ? null : encodeSearchCursor(next) };
}

/**
 * The whole selection after the event with internal id `afterId` (null: from the start), as batches of hits in the
 * search's order: memory holds one batch, and the caller's awaiting each one is the backpressure.
 */
export async function* exportEvents(
  store: SearchStore,
  q: EventSearchQuery,
  afterId: string | null,
): AsyncGenerator<EventSearchHit[]> {
  await admit(store, q);
  let start: Position | null = null;
  if (afterId !== null) {
    if (!/^evt_[0-9A-Z]{26}$/.test(afterId)) throw fail('invalid_cursor');
    if (q.eventIdPrefix === undefined) start = { id: afterId };
    else {
      // By prefix the scan goes by event_id: resume after that event's.
      const eventId = await store.eventIdOf(q.tenantId, afterId);
      if (eventId === null) throw fail('invalid_cursor');
      start = { id: afterId, eventId };
    }
  }
  for await (const batch of batches(store, q, start, EVENT_SEARCH_LIMITS.batchRows)) {
    const hits = batch.rows.filter((r) => r.match).map((r) => r.event);
    if (hits.length > 0) yield await withDeliveries(store, q.tenantId, hits);
  }
}
