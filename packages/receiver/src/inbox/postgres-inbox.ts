// Inbox store on PostgreSQL through a `pg` Pool the caller creates; several processes may share it.
import type { PostgresQueryable } from '../stores/postgres-store.ts';
import type { InboxStore } from './inbox-store.ts';
import { inboxStatements, sqlInboxStore } from './sql-inbox-store.ts';

const statements = inboxStatements('postgres');

/**
 * A durable `InboxStore` on PostgreSQL. Accepts race on the primary key; claims lease with
 * `FOR UPDATE SKIP LOCKED`, so workers in many processes never wait on one another. The table
 * (`hookline_receiver_inbox`) is created on first use.
 *
 * @example
 * import pg from 'pg';
 * const store = postgresInbox(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 */
export function postgresInbox(pool: PostgresQueryable): InboxStore {
  let ready: Promise<unknown> | undefined;
  const ensureSchema = (): Promise<unknown> => {
    ready ??= pool.query(statements.schema).catch((error: unknown) => {
      ready = undefined; // try again on the next call once the database is back
      throw error;
    });
    return ready;
  };
  return sqlInboxStore({
    async run(name, params) {
      await ensureSchema();
      const result = await pool.query(statements[name], [...params]);
      return { rows: result.rows as Array<Record<string, unknown>>, changes: result.rowCount ?? 0 };
    },
  });
}
