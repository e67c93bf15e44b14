// Store micro-benchmark (not a scenario): per-row cost of the dispatcher's statements on SQLite, on the event loop.
import { performance } from 'node:perf_hooks';
import { openSqliteStore } from '@hookline/core';
import { acceptBacklog, engineFixture, TENANT } from './lib/fixture.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'hookline-micro-'));
const store = await openSqliteStore(join(dir, 'h.db'));
const f = await engineFixture({ store }, dir);
const ep = await f.engine.createEndpoint(TENANT, { url: 'http://127.0.0.1:9/x' });
const N = 20_000;
await acceptBacklog(f.engine, N);
const now = Date.now() + 1000;
let t = performance.now();
const claimed = [];
const CB = Number(process.argv[2] ?? 500), RB = Number(process.argv[3] ?? 128);
for (let i = 0; i < N / CB; i++) claimed.push(...(await store.claimDue({ now, limit: CB, leaseUntil: now + 90_000, workerId: 'w', saturatedEndpoints: [] })));
const claimUs = ((performance.now() - t) * 1000) / claimed.length;
t = performance.now();
const recs = claimed.map((c, i) => ({
  attempt: { id: `att_${i}`, deliveryId: c.delivery.id, tenantId: TENANT, endpointId: c.endpoint.id, n: 1, trigger: 'scheduled' as const, startedAt: now, durationMs: 1, requestHeaders: { 'content-type': 'application/json', 'webhook-id': c.delivery.eventId, 'webhook-timestamp': '1', 'webhook-signature': 'v1,' + 'x'.repeat(44) }, responseStatus: 200, responseHeaders: { 'content-type': 'text/plain', 'content-length': '2' }, responseExcerpt: 'ok', errorClass: null, errorMessage: null, outcome: 'success' as const },
  workerId: 'w',
  next: { status: 'succeeded' as const },
  progress: { fastFailures: 0, slowFailures: 0, slowStartedAt: null, firstAttemptAt: now, },
  replayId: null,
  previousAttemptAt: null,
  health: { rule: { kind: 'standard' }, countsFailure: true, countsSuccess: true },
  breakerScope: null,
}));
for (let i = 0; i < recs.length; i += RB) await store.recordAttempts(recs.slice(i, i + RB) as any, now);
const recordUs = ((performance.now() - t) * 1000) / recs.length;
console.log(JSON.stringify({ claimed: claimed.length, claim_us_per_row: claimUs.toFixed(1), record_us_per_row: recordUs.toFixed(1), counts: await store.countByStatus() }));
await f.close();
void ep;
