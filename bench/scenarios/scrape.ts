// Scenario `scrape`: ingest p99 of single `POST events` on a large deliveries table, without and with 32 loops
// scraping /metrics as fast as they can; the server in its own process (role all, SQLite), the ratio of the two.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateMasterKey } from '@hookline/core';
import { Pool } from 'undici';
import { startTs } from '../lib/children.ts';
import { acceptBacklog, engineFixture, eventInput, TENANT } from '../lib/fixture.ts';
import { percentile } from '../lib/stats.ts';

export async function measure(a: {
  receiverUrl: string;
  deliveries: number;
  singles: number;
  clients: number;
  scrapers: number;
}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-bench-scrape-'));
  const masterKey = generateMasterKey();
  // The large table, written through the engine: every event fans out to the one paused endpoint (a `skipped`
  // delivery), so the dispatcher of the server has nothing to send and only ingest and scrapes compete.
  const f = await engineFixture({ masterKey }, dir);
  await f.engine.endpoints.create(TENANT, { url: a.receiverUrl, status: 'paused' });
  await acceptBacklog(f.engine, a.deliveries, 0, 'bench.backlog');
  await f.engine.stop();
  await f.store.close();

  const token = `hl_admin_${randomBytes(16).toString('hex')}`;
  const server = startTs('server-child.ts', ['all', token], {
    timeoutMs: 30_000,
    env: { ...process.env, BENCH_DB: f.path, BENCH_MASTER_KEY: masterKey },
  });
  try {
    const { url } = await server.firstJson;
    const pool = new Pool(url, { connections: a.clients + a.scrapers, pipelining: 1, keepAliveTimeout: 10_000 });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let n = 10_000_000;
    const ingest = async (count: number) => {
      const ms: number[] = [];
      let bad = 0;
      let left = count;
      await Promise.all(
        Array.from({ length: a.clients }, async () => {
          while (left-- > 0) {
            const body = JSON.stringify(eventInput(n++, 'bench.scrape'));
            const t0 = performance.now();
            const res = await pool.request({ path: `/v1/tenants/${TENANT}/events`, method: 'POST', headers, body });
            await res.body.dump();
            ms.push(performance.now() - t0);
            if (res.statusCode !== 202) bad++;
          }
        }),
      );
      return { p50: percentile(ms, 50), p99: percentile(ms, 99), bad };
    };
    await ingest(Math.min(500, a.singles));
    const quiet = await ingest(a.singles);
    let scraping = true;
    let scrapes = 0;
    let scrapeErrors = 0;
    const loops = Array.from({ length: a.scrapers }, async () => {
      while (scraping) {
        const res = await pool.request({ path: '/metrics', method: 'GET' });
        await res.body.dump();
        if (res.statusCode === 200) scrapes++;
        else scrapeErrors++;
      }
    });
    const t0 = performance.now();
    const scraped = await ingest(a.singles);
    const seconds = (performance.now() - t0) / 1000;
    scraping = false;
    await Promise.all(loops);
    await pool.close();
    return { quiet, scraped, scrapes, scrapes_per_s: scrapes / seconds, scrape_errors: scrapeErrors };
  } finally {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
