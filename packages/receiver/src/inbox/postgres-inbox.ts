// Inbox store on PostgreSQL through a `pg` Pool the caller creates; several processes may share it.
import { type PostgresQueryable, postgresRunner } from '../stores/postgres-store.ts';
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
  return sqlInboxStore({ run: postgresRunner(pool, statements) });
}
