// Helpers for events that arrive out of order: newest-wins state, and component-wise merge.

/** ISO-8601 string, epoch milliseconds, or a Date. */
export type OccurredAt = string | number | Date;

export interface Ordered {
  readonly occurred_at: OccurredAt;
  /** Breaks ties between events of the same instant, so every arrival order ends the same. */
  readonly event_id?: string;
}

/**
 * Keeps whichever of the stored state and the incoming change happened last (`occurred_at`).
 * A late, older event never overwrites newer state.
 *
 * @example
 * let order = applyIfNewer(undefined, { occurred_at: '2025-01-01T10:20:00Z', status: 'cancelled' }).state;
 * const r = applyIfNewer(order, { occurred_at: '2025-01-01T10:12:00Z', status: 'shipped' });
 * r.applied // false: the shipped event is older
 */
export function applyIfNewer<T extends Ordered>(
  stored: T | null | undefined,
  incoming: T,
): { state: T; applied: boolean } {
  if (stored === null || stored === undefined) return { state: incoming, applied: true };
  const newer = isNewer(incoming, stored);
  return newer ? { state: incoming, applied: true } : { state: stored, applied: false };
}

/** How an event arrived relative to the newest one seen before it for the same thing (a payment, a conversation). */
export type Arrival = 'first' | 'in_order' | 'out_of_order' | 'duplicate';

/**
 * Detects an out-of-order arrival: compares the incoming event with the newest one seen for the same thing
 * (`occurred_at`, ties by `event_id`) and returns what to keep as the newest. When the sender does not order
 * deliveries (Hookline endpoints default to `ordering: "none"`), a retried older event can land after a newer one;
 * `out_of_order` is the cue to merge (applyIfNewer, mergeComponents) instead of applying blindly, or to count it.
 * `duplicate` is the same event again (at-least-once delivery).
 *
 * @example
 * let latest = checkArrival(undefined, { occurred_at: '2025-01-01T10:20:00Z', event_id: 'evt_2' }).latest;
 * const r = checkArrival(latest, { occurred_at: '2025-01-01T10:12:00Z', event_id: 'evt_1' });
 * r.arrival // 'out_of_order'; r.latest is still evt_2
 */
export function checkArrival<T extends Ordered>(
  latest: T | null | undefined,
  incoming: T,
): { arrival: Arrival; latest: T } {
  if (latest === null || latest === undefined) return { arrival: 'first', latest: incoming };
  const same =
    incoming.event_id !== undefined
      ? incoming.event_id === latest.event_id
      : latest.event_id === undefined && toMillis(incoming.occurred_at) === toMillis(latest.occurred_at);
  if (same) return { arrival: 'duplicate', latest };
  return isNewer(incoming, latest) ? { arrival: 'in_order', latest: incoming } : { arrival: 'out_of_order', latest };
}

/** A component's value with the time of the event that set it. */
export interface StampedValue<V> {
  readonly value: V;
  readonly occurred_at: OccurredAt;
  readonly event_id?: string;
}

export type ComponentState<V> = Readonly<Record<string, StampedValue<V>>>;

export interface ComponentUpdate<V> extends Ordered {
  /**
   * The components this payload knows. `null` (for the whole object or one component) means
   * "not known in this payload", never zero: it leaves the stored value alone.
   */
  readonly components: Readonly<Record<string, V | null | undefined>> | null | undefined;
}

/**
 * Merges one payload into the stored components; each component keeps its newest known value.
 * Replacing the whole object instead would erase a component another event supplied, or bring
 * back an older charge (the SMS cost case: delivery fee and carrier fee priced by different events).
 *
 * @example
 * let cost = mergeComponents({}, { occurred_at: 1, components: { delivery: '0.0050', carrier: null } });
 * cost = mergeComponents(cost, { occurred_at: 2, components: { delivery: null, carrier: '0.0025' } });
 * // { delivery: { value: '0.0050', … }, carrier: { value: '0.0025', … } }
 */
export function mergeComponents<V>(
  stored: ComponentState<V> | null | undefined,
  incoming: ComponentUpdate<V>,
): ComponentState<V> {
  const merged: Record<string, StampedValue<V>> = { ...(stored ?? {}) };
  for (const [name, value] of Object.entries(incoming.components ?? {})) {
    if (value === null || value === undefined) continue;
    const current = merged[name];
    const candidate: StampedValue<V> =
      incoming.event_id === undefined
        ? { value, occurred_at: incoming.occurred_at }
        : { value, occurred_at: incoming.occurred_at, event_id: incoming.event_id };
    if (current === undefined || isNewer(candidate, current)) merged[name] = candidate;
  }
  return merged;
}

/**
 * The plain values of merged components.
 *
 * @example
 * componentValues(cost) // { delivery: '0.0050', carrier: '0.0025' }
 */
export function componentValues<V>(state: ComponentState<V>): Record<string, V> {
  return Object.fromEntries(Object.entries(state).map(([name, stamped]) => [name, stamped.value]));
}

function isNewer(incoming: Ordered, stored: Ordered): boolean {
  const a = toMillis(incoming.occurred_at);
  const b = toMillis(stored.occurred_at);
  if (a !== b) return a > b;
  // Same instant: the larger event id wins, whatever order they came in; the same event never re-applies.
  return incoming.event_id !== undefined && stored.event_id !== undefined && incoming.event_id > stored.event_id;
}

function toMillis(value: OccurredAt): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(ms)) throw new TypeError(`occurred_at is not a time: ${String(value)}`);
  return ms;
}
