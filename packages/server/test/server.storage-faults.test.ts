// Storage faults in a running server: a full disk (a real, small tmpfs) and a store thread that dies.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { SqliteThreadStore } from '@hookline/core';
import { startTestServer, until } from './server-harness.ts';

/** Mounts a tmpfs of `size` at a new directory, or says why it cannot (not root, no permission). */
function mountTmpfs(size: string): { dir: string; unmount(): void } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe', timeout: 10_000 });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return {
      skip: `cannot mount a tmpfs here (${((err as { stderr?: Buffer }).stderr?.toString() || (err as Error).message).trim()})`,
    };
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe', timeout: 10_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the file system is full; returns its path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(256 * 1024, 7);
  try {
    for (let i = 0; i < 4096; i++) {
      try {
        writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return path;
        throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
  throw new Error('the file system never filled up');
}

const tmpfs = mountTmpfs('24m');

test('a full disk: 503 storage_unavailable for single and batch ingest, not ready while full, all well once space returns', {
  skip: 'skip' in tmpfs ? tmpfs.skip : false,
  timeout: 60_000,
}, async () => {
  const { dir, unmount } = tmpfs as { dir: string; unmount(): void };
  mkdirSync(join(dir, 'db'));
  const s = await startTestServer({ config: { db: join(dir, 'db', 'h.db') } });
  try {
    const tenant = await s.tenant();
    const events = `/v1/tenants/${tenant}/events`;
    const big = (id: string) => ({ event_id: id, type: 'report.ready', data: { blob: 'x'.repeat(900_000) } });
    assert.equal(
      (await s.api('POST', events, { body: { event_id: 'small', type: 'order.created', data: {} } })).status,
      202,
    );
    assert.equal((await s.api('GET', '/readyz', { token: null })).status, 200);

    const filler = fill(dir);
    const one = await s.api('POST', events, { body: big('full_1') });
    assert.equal(one.status, 503, JSON.stringify(one.body));
    assert.equal(one.body.error.code, 'storage_unavailable');
    const batch = await s.api('POST', `${events}/batch`, { body: { events: [big('full_2'), big('full_3')] } });
    assert.equal(batch.status, 503, 'nothing was stored: not a 202 with every item failed');
    assert.equal(batch.body.error.code, 'storage_unavailable');
    const ready = await s.api('GET', '/readyz', { token: null });
    assert.equal(ready.status, 503);
    assert.equal(ready.body.error.code, 'storage_unavailable');
    assert.ok(
      s.logs.some((l) => l.msg === 'not ready' && /disk full|writes fail|checkpoints fail/.test(String(l.reason))),
      'the reason is logged',
    );
    assert.equal(
      (await s.api('GET', '/healthz', { token: null })).status,
      200,
      'a full disk is not fatal: the process lives on',
    );
    assert.equal((await s.api('GET', `${events}/small`)).status, 200, 'reads still work');

    rmSync(filler);
    await until(async () => (await s.api('GET', '/readyz', { token: null })).status === 200, undefined, {
      what: 'readiness after space returned',
      timeoutMs: 15_000,
      everyMs: 50,
    });
    const again = await s.api('POST', events, { body: big('full_1') });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body.duplicate, false, 'the refused event was never stored');
    assert.equal((await s.api('GET', `${events}/full_2`)).status, 404);
  } finally {
    await s.close();
    unmount();
  }
});

test('a store thread that dies: /healthz and /readyz answer 503, every route does, and the server reports it as fatal', {
  timeout: 60_000,
}, async () => {
  const s = await startTestServer({ config: { fatalExitDelayMs: 60_000 } });
  try {
    const tenant = await s.tenant();
    assert.equal((await s.api('GET', '/healthz', { token: null })).status, 200);
    let fatal: Error | null = null;
    s.server.runtime.onFatal((err) => (fatal = err));
    await (s.server.runtime.store as unknown as SqliteThreadStore).crashThread();
    await until(
      async () => fatal,
      (v) => v !== null,
      { what: 'the fatal report', timeoutMs: 15_000, everyMs: 50 },
    );
    assert.match(fatal!.message, /store thread exited/);
    for (const path of ['/healthz', '/readyz', `/v1/tenants/${tenant}`]) {
      const r = await s.api('GET', path);
      assert.equal(r.status, 503, path);
      assert.equal(r.body.error.code, 'storage_unavailable', path);
    }
    assert.ok(
      s.logs.some((l) => l.level === 'error' && /FATAL/.test(l.msg)),
      'logged loudly',
    );
  } finally {
    await s.close().catch(() => undefined);
  }
});
