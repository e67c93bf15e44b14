// Scenario `peer`: the same drain built the way a team usually builds it — BullMQ on Redis (AOF, fsync every
// second), a Worker with concurrency 50 POSTing signed bodies with undici, the result kept on the job.

import { performance } from 'node:perf_hooks';
import { signHeaders } from '@hookline/core';
import { Queue, Worker } from 'bullmq';
import { Pool } from 'undici';
import { envelope } from '../lib/fixture.ts';
import { startRedis } from '../lib/redis.ts';

export async function measure(a: { url: string; events: number; warmup?: number; concurrency?: number }) {
  const redis = await startRedis();
  const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
  const queue = new Queue('webhooks', { connection });
  const u = new URL(a.url);
  const pool = new Pool(u.origin, { connections: a.concurrency ?? 50, pipelining: 1, keepAliveTimeout: 4000 });
  const secrets = [{ kid: 'sec_bench', secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` }];
  try {
    // The backlog, not timed: one job per delivery carrying its body, as a queue-based sender stores it.
    const fill = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += 1000) {
        const jobs = [];
        for (let j = i; j < Math.min(from + count, i + 1000); j++) {
          jobs.push({
            name: 'deliver',
            data: { url: a.url, eventId: `evt_${j}`, body: envelope(j).toString('utf8') },
            opts: { attempts: 8, backoff: { type: 'exponential', delay: 5000 } },
          });
        }
        await queue.addBulk(jobs);
      }
    };
    let done = 0;
    let target = a.warmup ?? 0;
    let resolve!: () => void;
    let finished = new Promise<void>((r) => (resolve = r));
    // Warm-up (untimed) on its own jobs, then the worker pauses while the measured backlog is filled.
    await fill(1_000_000, target);
    const worker = new Worker(
      'webhooks',
      async (job) => {
        const body = Buffer.from(job.data.body);
        const headers = signHeaders({
          scheme: 'hookline',
          eventId: job.data.eventId,
          deliveryId: job.id!,
          timestampSec: Math.floor(Date.now() / 1000),
          body,
          secrets,
        });
        const started = Date.now();
        const res = await pool.request({
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'bench-bullmq', ...headers },
          body,
        });
        const excerpt = (await res.body.text()).slice(0, 4096);
        if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
        // The attempt record BullMQ persists with the completed job.
        return { status: res.statusCode, duration_ms: Date.now() - started, excerpt };
      },
      { connection, concurrency: a.concurrency ?? 50 },
    );
    worker.on('completed', () => {
      if (++done >= target) resolve();
    });
    worker.on('error', () => {});
    if (target > 0) await finished;
    await worker.pause();
    await fill(0, a.events);
    done = 0;
    target = a.events;
    finished = new Promise<void>((r) => (resolve = r));
    const t0 = performance.now();
    worker.resume();
    await Promise.race([
      finished,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`peer: ${done}/${a.events} within 180 s`)), 180_000).unref(),
      ),
    ]);
    const seconds = (performance.now() - t0) / 1000;
    await worker.close();
    return { deliveries: a.events, seconds, per_s: a.events / seconds };
  } finally {
    await queue.close();
    await pool.close();
    await redis.close();
  }
}
