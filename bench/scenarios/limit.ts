// Scenario `limit`: the physical limit — a bare undici Pool (20 keep-alive connections) POSTing signed 1 KB
// bodies to the receiver, no store. Every other figure is also printed as a fraction of this one.

import { performance } from 'node:perf_hooks';
import { signHeaders } from '@hookline/core';
import { Pool } from 'undici';
import { envelope } from '../lib/fixture.ts';

export async function measure(a: {
  url: string;
  events: number;
  warmup?: number;
  connections?: number;
  concurrency?: number;
}) {
  const u = new URL(a.url);
  const pool = new Pool(u.origin, { connections: a.connections ?? 20, pipelining: 1, keepAliveTimeout: 4000 });
  const secrets = [{ kid: 'sec_bench', secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` }];
  const bodies = Array.from({ length: 64 }, (_, i) => envelope(i));
  let next = 0;
  let failed = 0;
  let total = 0;
  async function loop() {
    while (next < total) {
      const i = next++;
      const body = bodies[i % bodies.length];
      const headers = signHeaders({
        scheme: 'hookline',
        eventId: `evt_${i}`,
        deliveryId: `dlv_${i}`,
        timestampSec: Math.floor(Date.now() / 1000),
        body,
        secrets,
      });
      const res = await pool.request({
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'bench', ...headers },
        body,
      });
      await res.body.dump();
      if (res.statusCode !== 200) failed++;
    }
  }
  // Warm-up (untimed), as every scenario gets: open connections, JIT the path, so figures are steady-state.
  total = a.warmup ?? 0;
  await Promise.all(Array.from({ length: a.concurrency ?? 20 }, loop));
  next = 0;
  total = a.events;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: a.concurrency ?? 20 }, loop));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { requests: a.events, failed, seconds, per_s: a.events / seconds };
}
