// In-memory dedup store, for tests only: a restart forgets every id.
import { claimOutcome, type DedupRecord, type DedupState, type DedupStore, isReclaimable } from '../dedup-store.ts';
import { StorageUnavailable } from '../errors.ts';

export interface MemoryStore extends DedupStore {
  /** Simulates the backend going down (every call throws `StorageUnavailable`) or coming back. */
  setUnavailable(down: boolean): void;
}

/**
 * A `DedupStore` in a Map. Never use it in production: duplicates after a restart run again.
 *
 * @example
 * const store = memoryStore();
 * createWebhookHandler({ store, secrets, events });
 */
export function memoryStore(): MemoryStore {
  const records = new Map<string, DedupRecord>();
  let down = false;
  const check = async (): Promise<void> => {
    // A microtask hop keeps ordering as asynchronous as a real store's.
    await Promise.resolve();
    if (down) throw new StorageUnavailable(new Error('memory store set unavailable'));
  };
  const transition = (
    eventId: string,
    attempt: number,
    from: readonly DedupState[],
    patch: Partial<DedupRecord>,
  ): boolean => {
    const record = records.get(eventId);
    if (record === undefined || record.attempt !== attempt || !from.includes(record.state)) return false;
    records.set(eventId, { ...record, ...patch });
    return true;
  };
  return {
    setUnavailable(value) {
      down = value;
    },
    async claim(eventId, now, staleAfterMs) {
      await check();
      const record = records.get(eventId);
      if (record === undefined || isReclaimable(record, now, staleAfterMs)) {
        const attempt = (record?.attempt ?? 0) + 1;
        records.set(eventId, {
          eventId,
          state: 'received',
          attempt,
          answer: record?.answer,
          error: undefined,
          updatedAt: now,
        });
        return { kind: 'claimed', attempt };
      }
      return claimOutcome(record);
    },
    async markProcessing(eventId, attempt, answer, now) {
      await check();
      return transition(eventId, attempt, ['received'], { state: 'processing', answer, updatedAt: now });
    },
    async markDone(eventId, attempt, now, answer) {
      await check();
      const patch: Partial<DedupRecord> =
        answer === undefined ? { state: 'done', updatedAt: now } : { state: 'done', answer, updatedAt: now };
      return transition(eventId, attempt, ['received', 'processing'], patch);
    },
    async markFailed(eventId, attempt, error, now) {
      await check();
      return transition(eventId, attempt, ['received', 'processing'], { state: 'failed', error, updatedAt: now });
    },
    async release(eventId, attempt) {
      await check();
      const record = records.get(eventId);
      if (
        record !== undefined &&
        record.attempt === attempt &&
        (record.state === 'received' || record.state === 'processing')
      ) {
        records.delete(eventId);
      }
    },
    async get(eventId) {
      await check();
      return records.get(eventId);
    },
    async prune(before) {
      await check();
      let removed = 0;
      for (const [id, record] of records) {
        if ((record.state === 'done' || record.state === 'failed') && record.updatedAt < before) {
          records.delete(id);
          removed++;
        }
      }
      return removed;
    },
  };
}
