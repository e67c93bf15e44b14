// Brings a PostgreSQL schema up to date: the numbered migrations it has not recorded, each in its own transaction,
// then every function file (functions/*.sql, `CREATE OR REPLACE`) in one transaction, all under one advisory lock so
// processes that start together migrate once. The function files are the functions' one definition: applied after
// the migrations, they replace whatever an older migration defined.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { loadFunctions, loadMigrations } from '../sql-files.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS = loadMigrations(join(here, 'migrations'));
export const FUNCTIONS = loadFunctions(join(here, 'functions'));

/** One key for every Hookline process on a database: migrations run once even when several start together. */
const MIGRATION_LOCK = "hashtext('hookline.migrate')";

/** Migrates on `client` (its search_path names the schema); `schema` is created first when given. */
export async function migrate(client: pg.ClientBase, schema: string | undefined): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const done = new Set(
      (await client.query('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await inTransaction(client, `migration ${m.version}_${m.name}`, async () => {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          Date.now(),
        ]);
      });
    }
    await inTransaction(client, 'functions', async () => {
      for (const f of FUNCTIONS) await client.query(f.sql);
    });
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
  }
}

async function inTransaction(client: pg.ClientBase, what: string, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw new Error(`${what} failed: ${(err as Error).message}`, { cause: err });
  }
}
