// Dedup store on SQLite through a better-sqlite3 `Database` the caller opens.
import type { DedupStore } from '../dedup-store.ts';
import { StorageUnavailable } from '../errors.ts';
import { type SqlStatementName, sqlDedupStore, sqlStatements } from './sql-dedup-store.ts';

/** The slice of better-sqlite3's `Database` we use; the driver itself is never imported here. */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  pragma(source: string): unknown;
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number };
    readonly reader: boolean;
  };
}

/**
 * A durable `DedupStore` on SQLite: WAL, `synchronous=FULL` (an id is on disk before we answer),
 * and the table created if missing.
 *
 * @example
 * import Database from 'better-sqlite3';
 * const store = sqliteStore(new Database('webhooks.db'));
 */
export function sqliteStore(db: SqliteDatabase): DedupStore {
  const prepared = prepareSqlite<SqlStatementName>(db, sqlStatements);
  return sqlDedupStore({
    async run(name, params) {
      const { statement, order } = prepared.get(name)!;
      const args = order.map((n) => params[n - 1]);
      // `reader` is true for SELECT and for INSERT … RETURNING (the claim).
      if (statement.reader) return { rows: statement.all(...args) as Array<Record<string, unknown>>, changes: 0 };
      return { rows: [], changes: statement.run(...args).changes };
    },
  });
}

/** A prepared statement and, for each `?` in it, the number of the `$n` parameter it stands for. */
export type PreparedSqlite = { statement: ReturnType<SqliteDatabase['prepare']>; order: number[] };

/**
 * Readies `db` for a durable store (the dedup store and the inbox): WAL, `synchronous=FULL`, a 5 s `busy_timeout`
 * (several processes may share the file; wait for a writer instead of failing at once), `statements.schema` run, and
 * every other statement prepared. Any failure is StorageUnavailable.
 */
export function prepareSqlite<N extends string>(
  db: SqliteDatabase,
  statements: Record<N | 'schema', string>,
): Map<N, PreparedSqlite> {
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.exec(statements.schema);
    return new Map(
      (Object.keys(statements) as Array<N | 'schema'>)
        .filter((name): name is N => name !== 'schema')
        .map((name) => {
          const { text, order } = toPositional(statements[name]);
          return [name, { statement: db.prepare(text), order }];
        }),
    );
  } catch (error) {
    throw new StorageUnavailable(error);
  }
}

/** better-sqlite3 has no `$n` numbered parameters, so `$2 … $2` becomes `? … ?` with a reorder map (the inbox uses it too). */
export function toPositional(text: string): { text: string; order: number[] } {
  const order: number[] = [];
  const withoutComments = text.replace(/--[^\n]*\n/g, '\n');
  return {
    text: withoutComments.replace(/\$(\d+)/g, (_, n: string) => {
      order.push(Number(n));
      return '?';
    }),
    order,
  };
}
