// The embedded default store: a SQLite file, its queue's leases in memory (queue/sqlite-queue.ts).
import { composeStore } from '../compose-store.ts';
import { LeaseTable } from '../queue/lease-table.ts';
import type { Store } from '../store.ts';
import { SqliteDriver, type SqliteOptions } from './sqlite-driver.ts';
import { SQLITE_PARTS } from './sqlite-parts.ts';

/** The store over a SQLite driver on this thread (the store thread's own, sqlite-thread-worker.ts). */
export function sqliteStore(driver: SqliteDriver): Store {
  const leases = new LeaseTable();
  leases.register(driver.db);
  return composeStore(driver, leases, SQLITE_PARTS.queue);
}

/** Opens (and migrates) a SQLite file on the event loop's own thread. */
export async function openSqliteStore(path: string, options: SqliteOptions = {}): Promise<Store> {
  const store = sqliteStore(new SqliteDriver(path, options));
  await store.migrate();
  return store;
}
