// Opens the embedded default store: a SQLite file, migrated.
import { SqlStore } from '../sql-store.ts';
import { SqliteDriver, type SqliteOptions } from './sqlite-driver.ts';

export async function openSqliteStore(path: string, options: SqliteOptions = {}): Promise<SqlStore> {
  const store = new SqlStore(new SqliteDriver(path, options));
  await store.migrate();
  return store;
}
