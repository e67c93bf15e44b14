// Events: accept one (durably, 202 semantics) or many in one group commit, an operational event for one endpoint, read one
// back, search and export them (event-search.ts).
import type { Delivery, EventRecord } from '../domain.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { type EventInput, expectAccepted, limitError } from '../ingest.ts';
import type { AcceptResult } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';
import { type EventSearchHit, type EventSearchQuery, exportEvents, searchEvents } from './event-search.ts';

/**
 * A new event with a delivery to attempt: only then is there anything for the dispatcher to claim (a delivery to a
 * paused endpoint is created `skipped`; waking for it cost a claim and a next-due read on the store per commit).
 */
function hasPending(r: AcceptResult | Error): boolean {
  return !(r instanceof Error) && r.kind === 'created' && r.deliveries.some((d) => d.status === 'pending');
}

export class EventOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** Accepts an event durably and wakes the dispatcher; 409 `event_conflict` on a different body. */
  async accept(tenantId: string, input: EventInput) {
    const r = expectAccepted(await this.#p.ingest.accept(tenantId, input));
    if (hasPending(r)) this.#p.dispatcher.wake();
    return r;
  }

  /** Accepts many events in one group commit; each result is the event, or that item's error (event_conflict, …). */
  async acceptMany(tenantId: string, inputs: EventInput[]) {
    const results = await this.#p.ingest.acceptMany(tenantId, inputs);
    if (results.some(hasPending)) this.#p.dispatcher.wake();
    return results.map((r) => {
      if (r instanceof Error) return r;
      if (r.kind === 'conflict') return fail('event_conflict', { event_id: r.eventId });
      // Refused by the tenant's limits (docs/rules.md#tenant-limits): that item alone, nothing of it stored.
      if (r.kind === 'limited') return limitError(r);
      return r;
    });
  }

  /**
   * An event for exactly one endpoint of the tenant, not fanned out by subscriptions: operational notifications
   * (endpoint.degraded, breaker.opened, …) to the tenant's operations endpoint. Idempotent on `event_id`.
   */
  async acceptFor(tenantId: string, endpointId: string, input: EventInput) {
    const p = this.#p;
    const ep = await p.store.catalog.getEndpoint(tenantId, endpointId);
    if (!ep) throw fail('endpoint_not_found');
    const prepared = await p.ingest.prepare(tenantId, input);
    const at = prepared.event.createdAt;
    const paused = ep.status === 'paused';
    prepared.deliveries = [
      { id: newId('dlv', at), endpointId, status: paused ? 'skipped' : 'pending', nextAttemptAt: paused ? null : at },
    ];
    const [r] = await p.store.events.acceptEvents([prepared]);
    const accepted = expectAccepted(r);
    if (accepted.kind === 'created' && !paused) p.dispatcher.wake();
    return accepted;
  }

  /** The event by the sender's event_id, with its deliveries; 404 `event_not_found`. */
  async get(tenantId: string, eventId: string): Promise<{ event: EventRecord; deliveries: Delivery[] }> {
    const found = await this.#p.store.events.getEvent(tenantId, eventId);
    if (!found) throw fail('event_not_found');
    return found;
  }

  /** One page of a search; an opaque cursor goes on (docs/api.md#event-search). */
  search(q: EventSearchQuery, cursor: string | null, limit: number) {
    return searchEvents(this.#p.store.events, q, cursor, limit);
  }

  /** The whole selection after the event with internal id `afterId`, batch by batch (bounded memory). */
  export(q: EventSearchQuery, afterId: string | null): AsyncGenerator<EventSearchHit[]> {
    return exportEvents(this.#p.store.events, q, afterId);
  }
}
