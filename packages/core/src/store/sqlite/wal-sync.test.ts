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
  const f = walFile();
  const w = new WalSync(f.path);
  await w.syncTo(w.wrote());
  await w.close();
  await assert.rejects(w.syncTo(w.wrote()), /closed/);
  f.cleanup();
  const missing = new WalSync(join(tmpdir(), 'hookline-no-such-dir', 'x.db-wal'));
  await assert.rejects(missing.syncTo(missing.wrote()), /ENOENT/);
  await missing.close();
});

test('the first failed fsync is latched: a later fsync that would succeed is never trusted', async () => {
  const f = walFile();
  let calls = 0;
  const failures: Error[] = [];
  // As Linux after an I/O error: the failing fsync reports EIO, the next one succeeds although the pages are gone.
  const fsync = async (_fd: number) => {
    calls++;
    if (calls === 2) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }); // 1 is the directory's
  };
  const w = new WalSync(f.path, { fsync, onFailure: (e) => failures.push(e) });
  try {
    const a = w.wrote();
    await assert.rejects(w.syncTo(a), (e: any) => e.code === 'SQLITE_IOERR_FSYNC' && /EIO/.test(e.message));
    await assert.rejects(w.syncTo(a), /EIO/, 'the same commit again');
    await assert.rejects(w.syncTo(w.wrote()), /EIO/, 'a commit made after the failure');
    assert.equal(calls, 2, 'no fsync after the failed one');
    assert.equal(failures.length, 1, 'told once');
    assert.equal(w.failed, failures[0]);
  } finally {
    await w.close();
    f.cleanup();
  }
});
