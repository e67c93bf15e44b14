import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteThreadStore } from './sqlite-thread.ts';

const tenant = (id: string) => ({
  id,
  name: id,
  ownerEmails: ['o@example.test'],
  operationsEndpointId: null,
  notifyEmail: false,
  createdAt: 1,
  updatedAt: 1,
});

async function withStore(fn: (s: Awaited<ReturnType<typeof openSqliteThreadStore>>, path: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-thread-'));
  const path = join(dir, 'h.db');
  const store = await openSqliteThreadStore(path);
  try {
    await fn(store, path);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('errors from the store thread keep their SQLite code; a closed store reads as storage unavailable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-thread-'));
  const store = await openSqliteThreadStore(join(dir, 'h.db'));
  await store.catalog.createTenant(tenant('ten_a'));
  await assert.rejects(
    store.catalog.createTenant(tenant('ten_a')),
    (err: any) => err instanceof Error && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  );
  assert.equal((await store.catalog.getTenant('ten_a'))?.name, 'ten_a');
  await store.close();
  await assert.rejects(store.catalog.getTenant('ten_a'), (err: any) =>
    /database connection is not open/.test(err.message),
  );
  rmSync(dir, { recursive: true, force: true });
});

test('the checkpointer thread copies the WAL into the database while the store thread keeps writing', async () => {
  await withStore(async (store, path) => {
    const before = statSync(path).size;
    for (let i = 0; i < 40; i++) await store.catalog.setSetting(`k${i}`, 'x'.repeat(20_000));
    // The store thread's own automatic checkpoint waits for 16,384 pages: only the checkpointer moves pages now.
    const deadline = Date.now() + 5000;
    while (statSync(path).size <= before + 400_000 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.ok(statSync(path).size > before + 400_000, `database file grew from ${before} to ${statSync(path).size}`);
    assert.equal(await store.catalog.getSetting('k39'), 'x'.repeat(20_000));
  });
});

test('the WAL does not stay big: once the store is idle the checkpointer truncates it to nothing', async () => {
  await withStore(async (store, path) => {
    for (let i = 0; i < 24; i++) await store.catalog.setSetting(`big${i}`, 'y'.repeat(250_000));
    assert.ok(statSync(`${path}-wal`).size > 1_000_000, 'the burst grew the WAL');
    const deadline = Date.now() + 10_000;
    while (statSync(`${path}-wal`).size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(statSync(`${path}-wal`).size, 0, 'an idle store leaves an empty WAL');
    assert.equal(await store.catalog.getSetting('big23'), 'y'.repeat(250_000));
    assert.equal(await store.problem!(), null, 'no checkpointer error');
  });
});
