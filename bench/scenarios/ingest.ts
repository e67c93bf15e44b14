// Scenario `ingest`: events/s through the HTTP API, the server in its own process: single `POST events` from 50
// concurrent clients, and `POST events/batch` (1,000 per request). Every 202 is durable when it arrives.
// The one endpoint is paused: every event still fans out to a delivery row (recorded `skipped`), and the server's
// dispatcher (role `all`: on SQLite one process owns the file) has nothing to send, so only ingest is measured.

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { startTs } from '../lib/children.ts';
import { eventInput } from '../lib/fixture.ts';
import { threadCpu } from '../lib/thread-cpu.ts';

async function call(
  pool: Pool,
  method: 'POST' | 'GET' | 'PATCH',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await pool.request({
    path,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : null };
}

export async function measure(a: {
  receiverUrl: string;
  singles: number;
  batches: number;
  batchSize: number;
  clients: number;
  warmup: number;
  profileDir?: string;
}) {
  const token = `hl_admin_${randomBytes(16).toString('hex')}`;
  const server = startTs('server-child.ts', ['all', token], {
    timeoutMs: 30_000,
    // e.g. BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/p": node's profiler on the server from its start,
    // one file per thread (the SQLite store thread's too; --profile covers only the main thread).
    nodeFlags: process.env.BENCH_SERVER_NODE_FLAGS?.split(' '),
    env: a.profileDir ? { ...process.env, BENCH_PROFILE_DIR: a.profileDir } : undefined,
  });
  try {
    const { url, pid, threads } = await server.firstJson;
    const pool = new Pool(url, { connections: a.clients, pipelining: 1, keepAliveTimeout: 10_000 });
    const tenant = await call(pool, 'POST', '/v1/tenants', token, { name: 'bench', notify_email: false });
    if (tenant.status !== 201) throw new Error(`create tenant: ${tenant.status} ${JSON.stringify(tenant.json)}`);
    const t = tenant.json.id as string;
    const ep = await call(pool, 'POST', `/v1/tenants/${t}/endpoints`, token, { url: a.receiverUrl });
    if (ep.status !== 201) throw new Error(`create endpoint: ${ep.status} ${JSON.stringify(ep.json)}`);
    const paused = await call(pool, 'PATCH', `/v1/tenants/${t}/endpoints/${ep.json.id}`, token, { status: 'paused' });
    if (paused.status !== 200) throw new Error(`pause endpoint: ${paused.status} ${JSON.stringify(paused.json)}`);
    const bodies = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => JSON.stringify(eventInput(from + i, 'bench.ingest')));

    // Single events, `clients` in flight.
    const single = async (from: number, n: number) => {
      const payloads = bodies(from, n);
      let next = 0;
      let bad = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: a.clients }, async () => {
          while (next < n) {
            const body = payloads[next++];
            const res = await pool.request({
              path: `/v1/tenants/${t}/events`,
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body,
            });
            await res.body.dump();
            if (res.statusCode !== 202) bad++;
          }
        }),
      );
      return { seconds: (performance.now() - t0) / 1000, bad };
    };
    await single(50_000_000, a.warmup);
    // The server's CPU (every thread, and by thread) per event: each event is one (skipped) delivery row.
    const singleCpu = threadCpu(pid);
    const s = await single(0, a.singles);
    const singleSplit = singleCpu.done(a.singles, threads);

    // Batches of `batchSize`, a few in flight (a producer flushing its outbox).
    const batch = async (from: number, count: number) => {
      const payloads = Array.from(
        { length: count },
        (_, b) => `{"events":[${bodies(from + b * a.batchSize, a.batchSize).join(',')}]}`,
      );
      let next = 0;
      let bad = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(4, count) }, async () => {
          while (next < count) {
            const body = payloads[next++];
            const res = await pool.request({
              path: `/v1/tenants/${t}/events/batch`,
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body,
            });
            const out = JSON.parse(await res.body.text());
            if (res.statusCode !== 202 || out.accepted !== a.batchSize) bad++;
          }
        }),
      );
      return { seconds: (performance.now() - t0) / 1000, bad };
    };
    await batch(60_000_000, Math.max(1, Math.round(a.warmup / a.batchSize)));
    const batchCpu = threadCpu(pid);
    const b = await batch(10_000_000, a.batches);
    const batchSplit = batchCpu.done(a.batches * a.batchSize, threads);
    await pool.close();
    return {
      single_events: a.singles,
      single_per_s: a.singles / s.seconds,
      single_errors: s.bad,
      single_cpu: singleSplit,
      batch_events: a.batches * a.batchSize,
      batch_per_s: (a.batches * a.batchSize) / b.seconds,
      batch_errors: b.bad,
      batch_cpu: batchSplit,
    };
  } finally {
    await server.kill();
  }
}
