// writeFileOnce (master.key): what can be checked without a power cut — the order of writes and syncs, the mode, that
// an existing file is never replaced, and that a failed write leaves neither a partial file nor a temporary one.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type DurableFs, writeFileOnce } from './durable-file.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'hookline-durable-'));
}

/** The real calls, each logged as `name path-or-fd-kind`; `fail` makes one call throw instead. */
function recordingFs(dir: string, fail?: { call: keyof DurableFs; code: string }) {
  const log: string[] = [];
  const kinds = new Map<number, string>();
  const name = (p: fs.PathLike) => (String(p) === dir ? 'dir' : String(p).endsWith('.tmp') ? 'tmp' : 'file');
  const maybeFail = (call: keyof DurableFs) => {
    if (fail?.call === call)
      throw Object.assign(new Error(`${fail.code}: injected ${call} failure`), { code: fail.code });
  };
  const io: DurableFs = {
    openSync: ((p: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode) => {
      maybeFail('openSync');
      const fd = fs.openSync(p, flags, mode);
      kinds.set(fd, name(p));
      log.push(`open ${name(p)}`);
      return fd;
    }) as DurableFs['openSync'],
    writeSync: ((fd: number, ...rest: unknown[]) => {
      log.push(`write ${kinds.get(fd)}`);
      maybeFail('writeSync');
      return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as DurableFs['writeSync'],
    fsyncSync: (fd) => {
      log.push(`fsync ${kinds.get(fd)}`);
      if (kinds.get(fd) === 'tmp') maybeFail('fsyncSync');
      fs.fsyncSync(fd);
    },
    closeSync: (fd) => {
      log.push(`close ${kinds.get(fd)}`);
      fs.closeSync(fd);
    },
    linkSync: (a, b) => {
      log.push(`link ${name(a)} ${name(b)}`);
      maybeFail('linkSync');
      fs.linkSync(a, b);
    },
    unlinkSync: (p) => {
      log.push(`unlink ${name(p)}`);
      fs.unlinkSync(p);
    },
  };
  return { io, log };
}

test('writes through a synced temporary file linked into place, then syncs the directory; mode 0600; no temp left', () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'master.key');
    const { io, log } = recordingFs(dir);
    assert.equal(writeFileOnce(dir, file, 'the key\n', io), true);
    assert.equal(readFileSync(file, 'utf8'), 'the key\n');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['master.key'], 'only the key is left');
    // The data is on disk before the name points at it, and the name is on disk before the call returns.
    assert.deepEqual(log, [
      'open tmp',
      'write tmp',
      'fsync tmp',
      'close tmp',
      'link tmp file',
      'unlink tmp',
      'open dir',
      'fsync dir',
      'close dir',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('never overwrites an existing file: false, the old content stays, no temp left', () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'master.key');
    writeFileSync(file, 'first\n', { mode: 0o600 });
    assert.equal(writeFileOnce(dir, file, 'second\n'), false);
    assert.equal(readFileSync(file, 'utf8'), 'first\n');
    assert.deepEqual(readdirSync(dir), ['master.key']);
    // Two writers one after the other (as two processes racing at start): the first wins, the second is refused.
    const other = join(dir, 'other.key');
    assert.deepEqual([writeFileOnce(dir, other, 'a\n'), writeFileOnce(dir, other, 'b\n')], [true, false]);
    assert.equal(readFileSync(other, 'utf8'), 'a\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed write, fsync or link leaves no file at all (never a partial key) and no temporary file', () => {
  for (const [call, code] of [
    ['writeSync', 'ENOSPC'],
    ['fsyncSync', 'EIO'],
    ['linkSync', 'EIO'],
  ] as const) {
    const dir = tempDir();
    try {
      const file = join(dir, 'master.key');
      const { io, log } = recordingFs(dir, { call, code });
      assert.throws(
        () => writeFileOnce(dir, file, 'the key\n', io),
        (e: NodeJS.ErrnoException) => e.code === code,
        call,
      );
      assert.deepEqual(readdirSync(dir), [], `${call}: nothing left behind (${log.join(', ')})`);
      assert.ok(
        !log.includes('link tmp file') || call === 'linkSync',
        `${call}: an unsynced file is never linked into place`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
