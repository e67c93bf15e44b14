// Opens the PostgreSQL store: SqlStore over a PostgresDriver, migrated, with LISTEN/NOTIFY wake-ups (onDue).
import { SqlStore } from '../sql-store.ts';
import { PostgresDriver, type PostgresOptions } from './postgres-driver.ts';

/** SqlStore with the one thing only PostgreSQL adds: other processes' due work wakes this one's dispatcher. */
export class PostgresStore extends SqlStore {
  constructor(readonly pg: PostgresDriver) {
    super(pg);
  }

  onDue(cb: () => void): () => void {
    return this.pg.onDue(cb);
  }
}

/** `postgres://` or `postgresql://`: the `--db` value names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * `const store = await openPostgresStore('postgres://hookline@db/hookline')` — pooled, statement timeouts on,
 * migrated (once, even when several processes start together).
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const store = new PostgresStore(new PostgresDriver(url, options));
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
