import assert from 'node:assert/strict';
import { fstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
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

test('one WAL descriptor for the syncer’s life: the directory is fsynced once per open and its descriptor closed', async () => {
  const f = walFile();
  const seen: number[] = [];
  const w = new WalSync(f.path, { fsync: async (fd) => void seen.push(fd) });
  try {
    assert.equal(w.written, 0);
    await w.syncTo(w.wrote());
    await w.syncTo(w.wrote());
    assert.equal(w.written, 2, 'the latest commit number');
    assert.equal(w.syncs, 2);
    assert.equal(seen.length, 3, 'directory once, then the WAL once per round');
    const [dir, wal1, wal2] = seen;
    assert.equal(wal1, wal2, 'the same WAL descriptor for both rounds');
    assert.notEqual(dir, wal1);
    assert.throws(() => fstatSync(dir), { code: 'EBADF' }, 'the directory descriptor is closed after its fsync');
    assert.ok(fstatSync(wal1).isFile(), 'the WAL descriptor stays open');
    await w.close();
    assert.throws(() => fstatSync(wal1), { code: 'EBADF' }, 'close() closes the WAL descriptor');
  } finally {
    await w.close();
    f.cleanup();
  }
});

test('the latched failure carries the fsync error as its cause and names the WAL file', async () => {
  const f = walFile();
  const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
  const w = new WalSync(f.path, {
    fsync: async () => {
      throw eio;
    },
  });
  try {
    await assert.rejects(w.syncTo(w.wrote()), (e: any) => e.cause === eio && e.message.includes(f.path));
    assert.equal(w.failed?.cause, eio);
  } finally {
    await w.close();
    f.cleanup();
  }
});
