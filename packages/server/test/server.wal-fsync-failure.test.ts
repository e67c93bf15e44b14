// A failed WAL fsync alone latches a real `hookline serve`: the fault-fs shim fails only WalSync's fsync of the WAL
// (FAULTFS_SKIP_NOFOLLOW leaves SQLite's own descriptors, the checkpointer's, healthy), so nothing but WalSync's latch
// can stop the next fsync from succeeding and a later 202 from acknowledging what may never have reached the disk.
// server.fsync-failure.test.ts fails every descriptor of the WAL, the checkpointer's too.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildFaultFs } from '@hookline/core/testing';
import { callJson, serveFaulty } from './fixtures/fault-serve.ts';

const shim = buildFaultFs();

test('one failed fsync of the WAL by WalSync, the checkpointer healthy: 503 storage_unavailable from then on, nothing acknowledged after it; every 202 survives the restart', {
  skip: 'skip' in shim ? shim.skip : false,
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-wal-fsync-'));
  const arm = join(dir, 'arm');
  const faults = join(dir, 'faults.log');
  let first: ReturnType<typeof serveFaulty> | undefined;
  try {
    first = serveFaulty(dir, {
      LD_PRELOAD: (shim as { path: string }).path,
      FAULTFS_PATTERN: join(dir, 'h.db-wal'),
      FAULTFS_SKIP_NOFOLLOW: '1',
      FAULTFS_ARM_FILE: arm,
      FAULTFS_LOG: faults,
    });
    const url = await first.url;
    const tenant = await callJson(url, 'POST', '/v1/tenants', { name: 'Acme', owner_emails: ['ops@acme.test'] });
    assert.equal(tenant.status, 201);
    const events = `/v1/tenants/${tenant.body.id}/events`;
    const acked: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await callJson(url, 'POST', events, { event_id: `before_${i}`, type: 'order.created', data: { i } });
      assert.equal(r.status, 202);
      acked.push(`before_${i}`);
    }

    writeFileSync(arm, ''); // WalSync's next fsync of the WAL fails with EIO; every later one would succeed
    // One at a time: the first event's fsync fails; each later one would get a fsync of its own that succeeds.
    const after: Array<{ status: number; body: { error?: { code: string } } }> = [];
    for (let i = 0; i < 10; i++) {
      const r = await callJson(url, 'POST', events, { event_id: `after_${i}`, type: 'order.created', data: { i } });
      if (r.status === 202) acked.push(`after_${i}`);
      after.push(r);
    }
    const lines = readFileSync(faults, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1, `exactly one injected fault, on one descriptor: ${lines.join(' | ')}`);
    assert.match(lines[0], /^fsync fd=\d+ .*h\.db-wal EIO$/);
    assert.deepEqual(
      after.map((r) => [r.status, r.body?.error?.code]),
      Array.from({ length: 10 }, () => [503, 'storage_unavailable']),
    );
    assert.equal((await callJson(url, 'GET', '/readyz')).status, 503);
    assert.equal((await callJson(url, 'GET', `${events}/before_0`)).status, 503, 'reads too');

    const ended = await first.done;
    assert.notEqual(ended.code, 0, 'the process exits for its supervisor');
    assert.match(
      ended.stderr,
      /hookline: storage failed for good, exiting for a restart: .*fsync of .*h\.db-wal failed/,
    );
    assert.doesNotMatch(ended.stdout + ended.stderr, /checkpointer's fsync failed/, 'the checkpointer stayed healthy');

    // Restarted without the fault: every acknowledged event is there.
    const second = serveFaulty(dir, {});
    try {
      const url2 = await second.url;
      assert.equal((await callJson(url2, 'GET', '/readyz')).status, 200);
      for (const id of acked) assert.equal((await callJson(url2, 'GET', `${events}/${id}`)).status, 200, id);
    } finally {
      second.child.kill('SIGTERM');
      assert.equal((await second.done).code, 0);
    }
  } finally {
    // A server that failed to latch does not exit on its own: end it with the test.
    if (first && first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    await first?.done.catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});
