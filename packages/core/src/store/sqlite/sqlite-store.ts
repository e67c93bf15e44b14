// Opens the embedded default store: a SQLite file, migrated.

import { SqliteDriver, type SqliteOptions } from './sqlite-driver.ts';
import { SqliteSqlStore } from './sqlite-sql-store.ts';

export async function openSqliteStore(path: string, options: SqliteOptions = {}): Promise<SqliteSqlStore> {
  const store = new SqliteSqlStore(new SqliteDriver(path, options));
  await store.migrate();
  return store;
}
