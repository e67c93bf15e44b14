// PostgreSQL's functions are defined once, in store/postgres/functions/*.sql, and a migrated database runs exactly
// those: each function in it is what its file creates (same signature, body and settings), no function lacks a file,
// a later migration only drops a function whose signature changes, and migrate() puts a drifted function back.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { FUNCTIONS, MIGRATIONS } from '../src/store/postgres/migrate.ts';
import { PostgresDriver } from '../src/store/postgres/postgres-driver.ts';
import { loadFunctions } from '../src/store/sql-files.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const FUNCTIONS_DIR = fileURLToPath(new URL('../src/store/postgres/functions/', import.meta.url));
/** The last migration written before the function files existed: the ones after it may drop a function, not create one. */
const LAST_DEFINING_MIGRATION = 26;

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.functions: ${db.skip}`);
after(() => db.cleanup());

test('each function file creates one function, named after the file', () => {
  const files = loadFunctions(FUNCTIONS_DIR);
  assert.deepEqual(
    files.map((f) => f.file),
    ['claim-due', 'endpoint-paused-at', 'key-free'],
  );
  for (const f of files) {
    assert.equal(f.name, `hookline_${f.file.replaceAll('-', '_')}`, `functions/${f.file}.sql`);
    assert.equal(f.sql.match(/\bCREATE\b/g)?.length, 1, `functions/${f.file}.sql creates one thing`);
    assert.match(f.sql, /^-- hookline_\w+\(/, `functions/${f.file}.sql opens with a header naming its parameters`);
  }
});

test('a migration after the function files only drops functions (the file recreates it)', () => {
  for (const m of MIGRATIONS.filter((x) => x.version > LAST_DEFINING_MIGRATION))
    assert.doesNotMatch(m.sql, /CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE)/i, `${m.version}_${m.name}`);
});

describe('postgres', { skip: db.skip ?? false }, () => {
  const schema = `fns_${process.pid}_${Date.now().toString(36)}`;
  const scratch = `${schema}_file`;
  let c: pg.Client;

  /** `name(args)` → pg_get_functiondef of every function in `nsp`, the schema's name taken out. */
  async function functionsIn(nsp: string, client: pg.ClientBase = c): Promise<Map<string, string>> {
    const rows = (
      await client.query(
        `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS sig, pg_get_functiondef(p.oid) AS def
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`,
        [nsp],
      )
    ).rows as Array<{ sig: string; def: string }>;
    return new Map(rows.map((r) => [r.sig, r.def.split(`${nsp}.`).join('')]));
  }

  /** What the files create, each run in a scratch schema inside a transaction that is rolled back. */
  async function functionsOfFiles(): Promise<Map<string, string>> {
    await c.query('BEGIN');
    try {
      await c.query(`CREATE SCHEMA ${scratch}`);
      await c.query(`SET LOCAL search_path = ${scratch}`);
      await c.query('SET LOCAL check_function_bodies = off');
      for (const f of FUNCTIONS) await c.query(f.sql);
      return await functionsIn(scratch);
    } finally {
      await c.query('ROLLBACK');
    }
  }

  async function migrate(): Promise<void> {
    const driver = new PostgresDriver(db.url!, { schema, poolMax: 1, listen: false });
    try {
      await driver.migrate();
    } finally {
      await driver.close();
    }
  }

  test('the migrated database runs exactly the functions its files define', async (t) => {
    c = new pg.Client({ connectionString: db.url! });
    await c.connect();
    t.after(async () => {
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await c.end();
    });
    // Processes starting together, on a fresh schema and then on a migrated one (each re-applies the function files,
    // which, unserialised, collide in the catalog: "tuple concurrently updated"): all migrate, one at a time.
    await Promise.all([migrate(), migrate()]);
    await Promise.all(Array.from({ length: 6 }, () => migrate()));
    const files = await functionsOfFiles();
    assert.deepEqual([...files.keys()].sort(), [
      'hookline_claim_due(p_now bigint, p_lease_until bigint, p_worker text, p_limit integer, p_saturated text[], p_lease_factor integer)',
      'hookline_endpoint_paused_at()',
      'hookline_key_free(p_endpoint text, p_key text, p_seq bigint)',
    ]);
    const live = await functionsIn(schema);
    assert.deepEqual([...live.keys()].sort(), [...files.keys()].sort(), 'a function in the database no file defines');
    for (const [sig, def] of files) assert.equal(live.get(sig), def, `${sig} differs from its file`);

    // A function changed behind the files' back (an older release's definition) is put back by the next migrate().
    await c.query(`SET search_path = ${schema}`);
    await c.query(
      'CREATE OR REPLACE FUNCTION hookline_key_free(p_endpoint TEXT, p_key TEXT, p_seq BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$ SELECT true $$',
    );
    const keyFree = 'hookline_key_free(p_endpoint text, p_key text, p_seq bigint)';
    assert.notEqual((await functionsIn(schema)).get(keyFree), files.get(keyFree), 'the drift took');
    await migrate();
    const again = await functionsIn(schema);
    for (const [sig, def] of files) assert.equal(again.get(sig), def, `${sig} is its file's again after migrate()`);
  });
});
