// In-memory inbox store, for tests only: a restart forgets every event.
import { StorageUnavailable } from '../errors.ts';
import { type InboxEntry, type InboxStore, MAX_ERROR_LENGTH } from './inbox-store.ts';

export interface MemoryInbox extends InboxStore {
  /** Simulates the backend going down (every call throws `StorageUnavailable`) or coming back. */
  setUnavailable(down: boolean): void;
}

/**
 * An `InboxStore` in a Map. Never use it in production: nothing survives the process.
 *
 * @example
 * const inbox = createInbox({ store: memoryInbox(), events });
 */
export function memoryInbox(): MemoryInbox {
  const entries = new Map<string, InboxEntry>();
  let down = false;
  const check = async (): Promise<void> => {
    // A microtask hop keeps ordering as asynchronous as a real store's.
    await Promise.resolve();
    if (down) throw new StorageUnavailable(new Error('memory inbox set unavailable'));
  };
  const fromRunning = (
    eventId: string,
    attempt: number,
    patch: (entry: InboxEntry) => Partial<InboxEntry>,
  ): boolean => {
    const entry = entries.get(eventId);
    if (entry === undefined || entry.attempt !== attempt || entry.state !== 'running') return false;
    entries.set(eventId, { ...entry, ...patch(entry) });
    return true;
  };
  const oldestFirst = (a: InboxEntry, b: InboxEntry) => a.availableAt - b.availableAt || a.receivedAt - b.receivedAt;
  return {
    setUnavailable(value) {
      down = value;
    },
    async accept(event) {
      await check();
      const existing = entries.get(event.eventId);
      if (existing !== undefined) return { kind: 'duplicate', state: existing.state };
      const body = Uint8Array.prototype.slice.call(event.body); // a copy: the caller's buffer may be reused
      entries.set(event.eventId, {
        ...event,
        headers: { ...event.headers },
        body,
        state: 'pending',
        attempt: 0,
        failures: 0,
        availableAt: event.receivedAt,
        updatedAt: event.receivedAt,
        error: undefined,
      });
      return { kind: 'accepted' };
    },
    async claim(now, leaseMs, limit) {
      await check();
      const due = [...entries.values()]
        .filter((e) => (e.state === 'pending' || e.state === 'running') && e.availableAt <= now)
        .sort(oldestFirst)
        .slice(0, limit);
      return due
        .map((entry) => {
          const claimed: InboxEntry = {
            ...entry,
            state: 'running',
            attempt: entry.attempt + 1,
            availableAt: now + leaseMs,
            updatedAt: now,
          };
          entries.set(entry.eventId, claimed);
          return claimed;
        })
        .sort((a, b) => a.receivedAt - b.receivedAt);
    },
    async complete(eventId, attempt, now) {
      await check();
      return fromRunning(eventId, attempt, () => ({
        state: 'done',
        availableAt: now,
        updatedAt: now,
        error: undefined,
      }));
    },
    async reschedule(eventId, attempt, error, at, now) {
      await check();
      return fromRunning(eventId, attempt, (e) => ({
        state: 'pending',
        failures: e.failures + 1,
        error: error.slice(0, MAX_ERROR_LENGTH),
        availableAt: at,
        updatedAt: now,
      }));
    },
    async bury(eventId, attempt, error, now) {
      await check();
      return fromRunning(eventId, attempt, (e) => ({
        state: 'dead',
        failures: e.failures + 1,
        error: error.slice(0, MAX_ERROR_LENGTH),
        availableAt: now,
        updatedAt: now,
      }));
    },
    async revive(eventId, now) {
      await check();
      const entry = entries.get(eventId);
      if (entry?.state !== 'dead') return false;
      entries.set(eventId, { ...entry, state: 'pending', failures: 0, availableAt: now, updatedAt: now });
      return true;
    },
    async deadLetters(limit) {
      await check();
      return [...entries.values()]
        .filter((e) => e.state === 'dead')
        .sort(oldestFirst)
        .slice(0, limit);
    },
    async get(eventId) {
      await check();
      return entries.get(eventId);
    },
    async prune(before, limit) {
      await check();
      const old = [...entries.values()]
        .filter((e) => e.state === 'done' && e.availableAt < before)
        .sort(oldestFirst)
        .slice(0, limit);
      for (const entry of old) entries.delete(entry.eventId);
      return old.length;
    },
  };
}
