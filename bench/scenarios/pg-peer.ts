// Scenario `pg-peer`: the drain built on a well-known PostgreSQL job queue — graphile-worker 0.16 on a scratch
// database of the same server Hookline's PostgreSQL drain uses. One job per delivery carrying its 1 KB body (added
// with graphile_worker.add_jobs, untimed), concurrency 50, each job signed and POSTed with an undici Pool (50
// connections) to the same loopback receiver. The attempt row goes into a table in the same transaction that completes
// the job (the job row is deleted there; graphile-worker's own completion afterwards finds nothing left to delete), so
// a crash can neither lose an attempt nor complete a job without one. Timed until every job completed.

import { performance } from 'node:perf_hooks';
import { signHeaders } from '@hookline/core';
import { type JobHelpers, Logger, type Runner, run } from 'graphile-worker';
import pg from 'pg';
import { Pool } from 'undici';
import { envelope } from '../lib/fixture.ts';
import { startPhaseProfile } from '../lib/phase-profile.ts';
import { scratchDatabase } from '../lib/scratch-pg.ts';

const quiet = process.env.BENCH_DEBUG ? undefined : new Logger(() => () => {});

export async function measure(a: {
  url: string;
  events: number;
  warmup?: number;
  concurrency?: number;
  profileDir?: string;
}) {
  const db = await scratchDatabase('hookline_bench_gw');
  const concurrency = a.concurrency ?? 50;
  const u = new URL(a.url);
  const http = new Pool(u.origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 4000 });
  const secrets = [{ kid: 'sec_bench', secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` }];
  const pgPool = new pg.Pool({ connectionString: db.url, max: concurrency + 10 });
  pgPool.on('error', () => {}); // the scratch database's drop cuts idle connections
  let runner: Runner | null = null;
  try {
    await pgPool.query(`CREATE TABLE attempts (id BIGSERIAL PRIMARY KEY, job_id BIGINT NOT NULL, event_id TEXT NOT NULL, status INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL, response_excerpt TEXT NOT NULL, attempted_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    let done = 0;
    let target = 0;
    let resolve: () => void = () => {};
    const task = async (payload: unknown, helpers: JobHelpers) => {
      const p = payload as { eventId: string; body: string };
      const body = Buffer.from(p.body);
      const headers = signHeaders({
        scheme: 'hookline',
        eventId: p.eventId,
        deliveryId: String(helpers.job.id),
        timestampSec: Math.floor(Date.now() / 1000),
        body,
        secrets,
      });
      const started = Date.now();
      const res = await http.request({
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'bench-graphile-worker', ...headers },
        body,
      });
      const excerpt = (await res.body.text()).slice(0, 4096);
      if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
      // The attempt and the job's completion in one transaction.
      await helpers.withPgClient(async (client) => {
        await client.query('BEGIN');
        try {
          await client.query(
            'INSERT INTO attempts (job_id, event_id, status, duration_ms, response_excerpt) VALUES ($1, $2, $3, $4, $5)',
            [helpers.job.id, p.eventId, res.statusCode, Date.now() - started, excerpt],
          );
          await client.query('DELETE FROM graphile_worker._private_jobs WHERE id = $1', [helpers.job.id]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      });
    };
    const start = async () => {
      const r = await run({
        pgPool,
        concurrency,
        noHandleSignals: true,
        pollInterval: 1000,
        logger: quiet,
        taskList: { deliver: task },
      });
      r.events.on('job:complete', ({ error }) => {
        if (!error && ++done >= target) resolve();
      });
      return r;
    };
    // One job per delivery with its body, 1,000 per add_jobs call (untimed).
    const fill = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += 1000) {
        const jobs = [];
        for (let j = i; j < Math.min(from + count, i + 1000); j++)
          jobs.push({ eventId: `evt_${j}`, body: envelope(j).toString('utf8') });
        await pgPool.query(
          `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(SELECT ROW('deliver', p, NULL, NULL, 8, NULL, NULL, NULL)::graphile_worker.job_spec FROM json_array_elements($1::json) p))`,
          [JSON.stringify(jobs)],
        );
      }
    };
    const drained = (n: number, what: string) => {
      done = 0;
      target = n;
      return Promise.race([
        new Promise<void>((r) => (resolve = r)),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`pg-peer ${what}: ${done}/${n} within 180 s`)), 180_000).unref(),
        ),
      ]);
    };
    // Warm-up (untimed) on its own jobs; then the workers stop while the measured backlog is added, and start again
    // on the clock (the undici pool's connections stay warm).
    runner = await start();
    if (a.warmup) {
      const warm = drained(a.warmup, 'warm-up');
      await fill(50_000_000, a.warmup);
      await warm;
    }
    await runner.stop();
    runner = null;
    await fill(0, a.events);
    await pgPool.query('VACUUM ANALYZE graphile_worker._private_jobs');
    const finished = drained(a.events, 'drain');
    const stopProfile = await startPhaseProfile(a.profileDir, 'pg-peer');
    const t0 = performance.now();
    runner = await start();
    await finished;
    const seconds = (performance.now() - t0) / 1000;
    await stopProfile();
    const { rows } = await pgPool.query('SELECT count(*)::int AS n FROM attempts');
    const { rows: left } = await pgPool.query('SELECT count(*)::int AS n FROM graphile_worker._private_jobs');
    return {
      deliveries: a.events,
      attempts: rows[0].n - (a.warmup ?? 0),
      jobs_left: left[0].n,
      seconds,
      per_s: a.events / seconds,
    };
  } finally {
    if (runner) await runner.stop();
    await pgPool.end();
    await http.close();
    await db.drop();
  }
}
