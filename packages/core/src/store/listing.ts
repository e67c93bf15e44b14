// What several store parts share in SQL: a page cut from limit + 1 rows, the byte order of ids and keys, key locks.
import type { Page } from './page.ts';
import type { SqlExecutor } from './sql-driver.ts';

/** Byte order of ids and keys: the one lock order every writer uses. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A page of `limit` items from a read of `limit + 1` rows: the extra row says whether another page follows. */
export function page<T extends { id: string }>(items: T[], limit: number): Page<T> {
  const more = items.length > limit;
  const kept = more ? items.slice(0, limit) : items;
  return { items: kept, nextCursor: more ? kept[kept.length - 1].id : null };
}

/**
 * Locks `endpoint id \0 key` until commit: see lock-ordering-key.sql. Only where several processes write (PostgreSQL,
 * `capsAcrossWorkers`); a SQLite file's write transactions already run one at a time, and skipping the statement
 * keeps it off the hot path of an ordered drain.
 */
export async function lockKey(tx: SqlExecutor, k: string): Promise<void> {
  const cut = k.indexOf('\u0000');
  await tx.all('lock-ordering-key', { endpoint_id: k.slice(0, cut), ordering_key: k.slice(cut + 1) });
}
