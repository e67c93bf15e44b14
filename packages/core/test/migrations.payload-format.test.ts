// Migration 027 gives the events accepted before it the payload format that the body recognition of the Svix message
// reads guessed (an object repeating the event's own id and type, with occurred_at and data, is an envelope; anything
// else is raw), on both dialects: its UPDATE is run over rows written as older releases wrote them and compared with
// that recognition, kept here as the reference.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresDriver } from '../src/store/postgres/postgres-driver.ts';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const STORE = fileURLToPath(new URL('../src/store/', import.meta.url));
/** The migration's UPDATE of old rows (its ALTER has run with the others: every row reads `envelope` first). */
const update = (dialect: 'sqlite' | 'postgres') => {
  const sql = readFileSync(join(STORE, dialect, 'migrations', '027_event_payload_format.sql'), 'utf8');
  return sql.slice(sql.indexOf('UPDATE events'));
};

/** The body recognition the reads used before the format was recorded. */
function guessed(eventId: string, type: string, body: string): 'envelope' | 'raw' {
  const o = JSON.parse(body);
  if (o && typeof o === 'object' && !Array.isArray(o))
    if (o.event_id === eventId && o.type === type && 'occurred_at' in o && Object.hasOwn(o, 'data')) return 'envelope';
  return 'raw';
}

const odd = 'a"b\\c/é\n';
/** [event_id, type, body] as older releases stored them: envelopes, raw payloads, and raw ones that look like one. */
const ROWS: Array<[string, string, string]> = [
  ['e1', 't.a', JSON.stringify({ event_id: 'e1', type: 't.a', version: '1', occurred_at: 'x', data: { a: 1 } })],
  ['e2', 't.a', JSON.stringify({ event_id: 'e2', type: 't.a', version: '1', occurred_at: 'x' })],
  ['e3', 't.a', JSON.stringify({ a: 1 })],
  ['e4', 't.a', JSON.stringify({ event_id: 'e4', type: 't.a', occurred_at: 'x', data: { inner: 1 } })],
  ['e5', 't.a', JSON.stringify({ event_id: 'other', type: 't.a', occurred_at: 'x', data: 1 })],
  ['e6', 't.a', JSON.stringify({ event_id: 'e6', type: 't.b', occurred_at: 'x', data: 1 })],
  ['e7', 't.a', JSON.stringify([1, 2])],
  ['e8', 't.a', '5'],
  ['e9', 't.a', JSON.stringify('e9')],
  ['e10', 't.a', 'null'],
  ['5', 't.a', JSON.stringify({ event_id: 5, type: 't.a', occurred_at: 'x', data: 1 })],
  ['e12', 't.a', JSON.stringify({ event_id: 'e12', type: 't.a', occurred_at: null, data: null })],
  ['e13', 't.a', JSON.stringify({ event_id: 'e13', type: 't.a', data: 1 })],
  [odd, `t.${odd}`, JSON.stringify({ event_id: odd, type: `t.${odd}`, version: '1', occurred_at: 'x', data: [] })],
];
const expected = ROWS.map(([id, type, body]) => [id, guessed(id, type, body)]);

test('the reference recognises both kinds among the rows', () => {
  const kinds = new Set(expected.map(([, f]) => f));
  assert.deepEqual([...kinds].sort(), ['envelope', 'raw']);
});

test('SQLite: old rows take the format the body recognition gave them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hl-027-'));
  const driver = new SqliteDriver(join(dir, 'h.db'));
  try {
    await driver.migrate();
    const db = driver.db;
    db.prepare("INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_A', 'A', 0, 0)").run();
    const insert = db.prepare(
      "INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, created_at) VALUES (?, 'ten_A', ?, ?, '1', 'x', ?, 'h', 0)",
    );
    for (const [i, [id, type, body]] of ROWS.entries())
      insert.run(`evt_${String(i).padStart(2, '0')}`, id, type, Buffer.from(body));
    db.exec(update('sqlite'));
    const got = db.prepare('SELECT event_id, payload_format FROM events ORDER BY id').raw().all();
    assert.deepEqual(got, expected);
  } finally {
    driver.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED migrations.payload-format postgres: ${db.skip}`);
after(() => db.cleanup());

describe('postgres', { skip: db.skip ?? false }, () => {
  test('PostgreSQL: old rows take the format the body recognition gave them', async () => {
    const schema = `m027_${process.pid}_${Date.now().toString(36)}`;
    const driver = new PostgresDriver(db.url!, { schema, poolMax: 1, listen: false });
    await driver.migrate();
    await driver.close();
    const c = new pg.Client({ connectionString: db.url!, options: `-c search_path=${schema}` });
    await c.connect();
    try {
      await c.query("INSERT INTO tenants (id, name, created_at, updated_at) VALUES ('ten_A', 'A', 0, 0)");
      for (const [i, [id, type, body]] of ROWS.entries())
        await c.query(
          "INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, created_at) VALUES ($1, 'ten_A', $2, $3, '1', 'x', $4, 'h', 0)",
          [`evt_${String(i).padStart(2, '0')}`, id, type, Buffer.from(body)],
        );
      await c.query(update('postgres'));
      const got = (await c.query({ text: 'SELECT event_id, payload_format FROM events ORDER BY id', rowMode: 'array' }))
        .rows;
      assert.deepEqual(got, expected);
    } finally {
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await c.end();
    }
  });
});
