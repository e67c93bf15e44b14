// Inbox store on SQLite through a better-sqlite3 `Database` the caller opens; accepts are group-committed.
import { prepareSqlite, type SqliteDatabase } from '../stores/sqlite-store.ts';
import type { InboxStore } from './inbox-store.ts';
import { type InboxStatementName, inboxStatements, sqlInboxStore } from './sql-inbox-store.ts';

const statements = inboxStatements('sqlite');

/** The slice of better-sqlite3's `Database` the inbox uses; the driver itself is never imported here. */
export interface SqliteInboxDatabase extends SqliteDatabase {
  transaction(fn: () => unknown): { immediate(): unknown };
}

type Rows = Array<Record<string, unknown>>;

/**
 * A durable `InboxStore` on SQLite: WAL with `synchronous=FULL`, so a commit is on disk before
 * the 2xx. Accepts arriving in the same event-loop turn share one `BEGIN IMMEDIATE` transaction
 * (one fsync for the batch, each caller answered after it); a claim is one `UPDATE … RETURNING`
 * inside `BEGIN IMMEDIATE`. Several processes may share the file (`busy_timeout` 5 s).
 *
 * @example
 * import Database from 'better-sqlite3';
 * const store = sqliteInbox(new Database('webhooks.db'));
 */
export function sqliteInbox(db: SqliteInboxDatabase): InboxStore {
  const prepared = prepareSqlite<InboxStatementName>(db, statements);
  const execute = (name: InboxStatementName, params: readonly unknown[]): { rows: Rows; changes: number } => {
    const { statement, order } = prepared.get(name)!;
    const args = order.map((n) => params[n - 1]);
    // `reader` is true for SELECT and for statements with RETURNING.
    if (statement.reader) {
      const rows = statement.all(...args) as Rows;
      return { rows, changes: rows.length };
    }
    return { rows: [], changes: statement.run(...args).changes };
  };

  // Group commit: every accept queued during one turn is written in one transaction.
  let batch: Array<{ params: readonly unknown[]; resolve: (rows: Rows) => void; reject: (error: unknown) => void }> =
    [];
  const flush = (): void => {
    const pending = batch;
    batch = [];
    const results: Rows[] = [];
    try {
      db.transaction(() => {
        for (const item of pending) results.push(execute('accept', item.params).rows);
      }).immediate();
    } catch (error) {
      // Rolled back as a whole: nobody in the batch is acknowledged.
      for (const item of pending) item.reject(error);
      return;
    }
    for (const [i, item] of pending.entries()) item.resolve(results[i]!);
  };

  return sqlInboxStore({
    async run(name, params) {
      if (name === 'accept') {
        const rows = await new Promise<Rows>((resolve, reject) => {
          if (batch.push({ params, resolve, reject }) === 1) setImmediate(flush);
        });
        return { rows, changes: rows.length };
      }
      if (name === 'claim') {
        let result!: { rows: Rows; changes: number };
        db.transaction(() => void (result = execute('claim', params))).immediate();
        return result;
      }
      return execute(name, params);
    },
  });
}
