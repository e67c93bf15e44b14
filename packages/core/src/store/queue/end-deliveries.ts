// Ending deliveries without an attempt, shared by both dialects' queues: the next of each key made due, a replay's
// delivery counted failed, failures summarised.
import { cmp, lockKey } from '../listing.ts';
import { addToFailureSummaries } from '../outbox-writes.ts';
import type { SqlDriver } from '../sql-driver.ts';

/** Ends deliveries without an attempt; `lockKeys`: the store is shared by several processes (StoreScope.capsAcrossWorkers). */
export async function endDeliveriesIn(
  db: SqlDriver,
  lockKeys: boolean,
  ids: string[],
  workerId: string | null,
  status: 'failed' | 'skipped',
  reason: string,
  now: number,
  /** leased: those of `ids` the worker holds in memory (SQLite: docs/rules.md#sqlite-leases). */
  options: { summarise?: boolean; leased?: readonly string[] } = {},
): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction(async (tx) => {
    // Ending a key's head makes the next of its key due (docs/rules.md#ordered-claim); keys locked first, as in
    // recordAttempts.
    const keyed = await tx.all<{ endpoint_id: string; ordering_key: string }>('keys-of-deliveries', { ids });
    const keys = [...new Set(keyed.map((r) => `${r.endpoint_id}\u0000${r.ordering_key}`))].sort(cmp);
    if (lockKeys) for (const k of keys) await lockKey(tx, k);
    const replayOf = new Map(
      (await tx.all<{ id: string; replay_id: string }>('replays-of-deliveries', { ids })).map((r) => [
        r.id,
        r.replay_id,
      ]),
    );
    const ended = await tx.all<{ id: string }>('end-deliveries', {
      ids,
      worker: workerId,
      leased: [...(options.leased ?? [])],
      status,
      reason,
      now,
    });
    for (const k of keys) {
      const cut = k.indexOf('\u0000');
      await tx.run('promote-next-of-key', { endpoint_id: k.slice(0, cut), ordering_key: k.slice(cut + 1), now });
    }
    // A replay's delivery ended unattempted (its endpoint paused meanwhile) is done for the replay, and failed.
    for (const r of ended) {
      const replayId = replayOf.get(r.id);
      if (replayId) await tx.run('bump-replay', { id: replayId, succeeded: 0, failed: 1 });
    }
    // As with attempts, a replay's failure is not summarised again (the delivery was failed or skipped before).
    if (status === 'failed' && options.summarise !== false)
      await addToFailureSummaries(
        tx,
        ended.filter((r) => !replayOf.has(r.id)).map((r) => r.id),
        now,
      );
  });
}
