import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { runStoreConformance } from '../../testing/store-conformance.ts';
import { sqliteStore } from './sqlite-store.ts';

runStoreConformance(
  'sqlite',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-receiver-'));
    const db = new Database(join(dir, 'dedup.db'));
    return {
      store: sqliteStore(db),
      breakBackend: async () => void db.close(),
      close: async () => {
        if (db.open) db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { prunes: true },
);

test('sqlite store: records survive reopening the file, in WAL mode', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-receiver-'));
  const path = join(dir, 'dedup.db');
  try {
    const first = new Database(path);
    const store = sqliteStore(first);
    await store.claim('evt_persist', 1, 1000);
    await store.markDone('evt_persist', 1, 2, { status: 202, body: '{}' });
    first.close();
    const second = new Database(path);
    assert.equal(second.pragma('journal_mode', { simple: true }), 'wal');
    assert.deepEqual(await sqliteStore(second).claim('evt_persist', 3, 1000), {
      kind: 'done',
      answer: { status: 202, body: '{}' },
    });
    second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
