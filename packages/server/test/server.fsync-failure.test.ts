// A failed WAL fsync (EIO from the fault-fs LD_PRELOAD shim) in a real `hookline serve`: latched, never a 202 after it.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildFaultFs } from '@hookline/core/testing';
import { callJson, serveFaulty } from './fixtures/fault-serve.ts';

const shim = buildFaultFs();

test('after one failed WAL fsync: no 202, 503 storage_unavailable to everything, not ready, a loud log line, exit non-zero; every 202 survives the restart', {
  skip: 'skip' in shim ? shim.skip : false,
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-fsync-fail-'));
  const arm = join(dir, 'arm');
  const faults = join(dir, 'faults.log');
  try {
    const first = serveFaulty(dir, {
      LD_PRELOAD: (shim as { path: string }).path,
      FAULTFS_PATTERN: join(dir, 'h.db-wal'),
      FAULTFS_ARM_FILE: arm,
      FAULTFS_LOG: faults,
    });
    const url = await first.url;
    const tenant = await callJson(url, 'POST', '/v1/tenants', { name: 'Acme', owner_emails: ['ops@acme.test'] });
    assert.equal(tenant.status, 201);
    const events = `/v1/tenants/${tenant.body.id}/events`;
    const acked: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await callJson(url, 'POST', events, { event_id: `before_${i}`, type: 'order.created', data: { i } });
      assert.equal(r.status, 202);
      acked.push(`before_${i}`);
    }

    writeFileSync(arm, ''); // the next fsync of the WAL fails with EIO; the one after would succeed
    const after = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        callJson(url, 'POST', events, { event_id: `after_${i}`, type: 'order.created', data: { i } }),
      ),
    );
    assert.ok(existsSync(faults) && /EIO/.test(readFileSync(faults, 'utf8')), 'the shim injected the failure');
    for (const [i, r] of after.entries()) {
      if (r.status === 202) acked.push(`after_${i}`);
      assert.equal(r.status, 503, `after_${i}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'storage_unavailable');
    }
    // A retry of the same events (a client's) must not be taken as accepted duplicates of the unsynced rows.
    const retry = await callJson(url, 'POST', events, { event_id: 'after_0', type: 'order.created', data: { i: 0 } });
    assert.equal(retry.status, 503);
    const batch = await callJson(url, 'POST', `${events}/batch`, {
      events: [{ event_id: 'b1', type: 'order.created', data: {} }],
    });
    assert.equal(batch.status, 503);
    assert.equal(batch.body.error.code, 'storage_unavailable');
    const ready = await callJson(url, 'GET', '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.body.error.code, 'storage_unavailable');
    assert.equal((await callJson(url, 'GET', '/healthz')).status, 503);
    assert.equal((await callJson(url, 'GET', `${events}/before_0`)).status, 503, 'reads too');

    const ended = await first.done;
    assert.notEqual(ended.code, 0, 'the process exits for its supervisor');
    assert.match(ended.stdout, /"level":"error".*FATAL: the store failed for good/);
    assert.match(ended.stderr, /hookline: storage failed for good, exiting for a restart: .*(EIO|disk I\/O error)/);

    // Restarted without the fault: SQLite recovers from the WAL and every acknowledged event is there.
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
    rmSync(dir, { recursive: true, force: true });
  }
});
