import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalSync } from './wal-sync.ts';

function walFile() {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-walsync-'));
  const path = join(dir, 'x.db-wal');
  writeFileSync(path, 'frames');
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('commits already on disk cost no fsync; concurrent commits share one', async () => {
  const f = walFile();
  const w = new WalSync(f.path);
  try {
    await w.syncTo(0);
    assert.equal(w.syncs, 0);
    const a = w.wrote();
    const b = w.wrote();
    await Promise.all([w.syncTo(a), w.syncTo(b), w.syncTo(b)]);
    assert.equal(w.syncs, 1);
    await w.syncTo(b);
    assert.equal(w.syncs, 1, 'nothing new was written');
  } finally {
    await w.close();
    f.cleanup();
  }
});

test('a commit made while an fsync runs waits for the next fsync, not the running one', async () => {
  const f = walFile();
  const w = new WalSync(f.path);
  try {
    const first = w.syncTo(w.wrote()); // starts an fsync covering commit 1
    const later = w.syncTo(w.wrote()); // commit 2 came after it began
    await first;
    assert.equal(w.syncs, 1);
    await later;
    assert.equal(w.syncs, 2);
  } finally {
    await w.close();
    f.cleanup();
  }
});

test('a failing fsync rejects its waiters; a closed syncer refuses new waits', async () => {
  const w = new WalSync(join(tmpdir(), 'hookline-no-such-dir', 'x.db-wal'));
  await assert.rejects(w.syncTo(w.wrote()), /ENOENT/);
  await w.close();
  await assert.rejects(w.syncTo(w.wrote()), /closed/);
});
