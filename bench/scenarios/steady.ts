// Scenario `steady`: Hookline as it runs, end to end. One `hookline serve` (its own process, SQLite) takes batches of
// 100 events over HTTP from 4 clients while it delivers every event to a receiver in another process. The offered
// rate climbs in short probe steps until the p99 from accept (the 202 reaching the client) to receipt (the request's
// headers reaching the receiver) passes the bound or the server stops keeping up; the highest rate that passed is
// then held for the full hold time, stepping down until a hold passes. Both processes read the same wall clock.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { startTs } from '../lib/children.ts';
import { eventInput } from '../lib/fixture.ts';
import { percentile } from '../lib/stats.ts';
import { type CpuSplit, type ThreadIds, threadCpu } from '../lib/thread-cpu.ts';

const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const BATCH = 100;
const CLIENTS = 4;

export interface Step {
  offered_per_s: number;
  seconds: number;
  accepted: number;
  arrived: number;
  accepted_per_s: number;
  p50_ms: number;
  p99_ms: number;
  held: boolean;
  cpu: CpuSplit | null;
}

interface Server {
  pool: Pool;
  tenant: string;
  token: string;
  pid: number;
  threads: ThreadIds;
}

async function post(s: Server, path: string, body: string): Promise<{ status: number; text: string }> {
  const res = await s.pool.request({
    path,
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

let nextSeq = 0;

/** Offers `rate` events/s for `seconds` in batches of 100 (open loop, 4 connections); measures accept → receipt. */
async function step(
  s: Server,
  receiverUrl: string,
  a: { rate: number; seconds: number; p99BoundMs: number },
): Promise<Step> {
  await fetch(new URL('/__reset', receiverUrl), { method: 'POST', headers: { 'x-record-arrivals': '1' } });
  const total = Math.max(1, Math.round((a.rate * a.seconds) / BATCH));
  const batches = Array.from({ length: total }, () => {
    const ids: string[] = [];
    const events = Array.from({ length: BATCH }, () => {
      const e = eventInput(nextSeq++, 'bench.steady');
      ids.push(e.event_id!);
      return JSON.stringify(e);
    });
    return { ids, body: `{"events":[${events.join(',')}]}` };
  });
  const acceptedAt = new Map<string, number>();
  let bad = 0;
  const cpu = threadCpu(s.pid);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        const k = next++;
        if (k >= total) return;
        // Batch k is due at t0 + k / (rate / 100) s: a slow answer does not lower the offered rate.
        const due = t0 + (k * BATCH * 1000) / a.rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const res = await post(s, `/v1/tenants/${s.tenant}/events/batch`, batches[k].body);
        const at = wall();
        if (res.status !== 202) bad++;
        else for (const id of batches[k].ids) acceptedAt.set(id, at);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  // Every accepted event must arrive; wait for the stragglers (bounded), then read the receiver's arrival times.
  let arrivals: Record<string, number> = {};
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stats = (await (await fetch(new URL('/__stats', receiverUrl))).json()) as { count: number };
    if (stats.count >= acceptedAt.size || Date.now() > deadline) break;
    await sleep(50);
  }
  const split = cpu.done(acceptedAt.size, s.threads);
  arrivals = (await (await fetch(new URL('/__arrivals', receiverUrl))).json()) as Record<string, number>;
  const latencies: number[] = [];
  for (const [id, at] of acceptedAt) {
    const got = arrivals[id];
    if (got !== undefined) latencies.push(got - at);
  }
  const p99 = percentile(latencies, 99);
  const acceptedPerS = acceptedAt.size / seconds;
  return {
    offered_per_s: a.rate,
    seconds,
    accepted: acceptedAt.size,
    arrived: latencies.length,
    accepted_per_s: acceptedPerS,
    p50_ms: percentile(latencies, 50),
    p99_ms: p99,
    // Held: nothing refused, nothing lost, the offered rate kept up with (within 3 %), and the p99 within the bound.
    held: bad === 0 && latencies.length === acceptedAt.size && acceptedPerS >= 0.97 * a.rate && p99 <= a.p99BoundMs,
    cpu: split,
  };
}

export async function measure(a: {
  receiverUrl: string;
  startRate: number;
  factor: number;
  maxRate: number;
  probeSeconds: number;
  holdSeconds: number;
  p99BoundMs: number;
}) {
  const token = `hl_admin_${randomBytes(16).toString('hex')}`;
  const server = startTs('server-child.ts', ['all', token], { timeoutMs: 30_000 });
  try {
    const { url, pid, threads } = await server.firstJson;
    const pool = new Pool(url, { connections: CLIENTS, pipelining: 1, keepAliveTimeout: 10_000 });
    const s: Server = { pool, tenant: '', token, pid, threads };
    const tenant = await post(s, '/v1/tenants', JSON.stringify({ name: 'bench', notify_email: false }));
    if (tenant.status !== 201) throw new Error(`create tenant: ${tenant.status} ${tenant.text}`);
    s.tenant = JSON.parse(tenant.text).id;
    const ep = await post(s, `/v1/tenants/${s.tenant}/endpoints`, JSON.stringify({ url: `${a.receiverUrl}/steady` }));
    if (ep.status !== 201) throw new Error(`create endpoint: ${ep.status} ${ep.text}`);

    // Warm-up (untimed): JIT, connections and the store's threads steady before the first probe.
    await step(s, a.receiverUrl, { rate: a.startRate, seconds: Math.min(2, a.probeSeconds), p99BoundMs: Infinity });
    const probes: Step[] = [];
    let rate = a.startRate;
    let passed = 0;
    while (rate <= a.maxRate) {
      const p = await step(s, a.receiverUrl, { rate, seconds: a.probeSeconds, p99BoundMs: a.p99BoundMs });
      probes.push(p);
      if (p.held) {
        passed = rate;
        rate = Math.round(rate * a.factor);
      } else if (passed === 0 && rate > 100) {
        rate = Math.max(100, Math.round(rate / 2)); // the start was already too much: look below it
      } else break;
    }
    // Hold: the highest rate that passed a probe, for the full time; a hold that fails steps down 10 % (at most 4 times).
    const holds: Step[] = [];
    let sustained: Step | null = null;
    let holdRate = passed;
    for (let i = 0; i < 4 && holdRate > 0; i++) {
      const h = await step(s, a.receiverUrl, { rate: holdRate, seconds: a.holdSeconds, p99BoundMs: a.p99BoundMs });
      holds.push(h);
      if (h.held) {
        sustained = h;
        break;
      }
      holdRate = Math.round(holdRate * 0.9);
    }
    await pool.close();
    return { sustained, probes, holds };
  } finally {
    await server.kill();
  }
}
