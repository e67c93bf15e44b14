// The real HTTP API in its own process for the ingest, scrape and steady scenarios: temp SQLite (or BENCH_DB, opened
// with BENCH_MASTER_KEY), port 0; prints {"url":…, "pid":…, "threads":{store, checkpointer}} when listening (the
// thread ids let the bench read each thread's CPU time in /proc, bench/lib/thread-cpu.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMasterKey } from '@hookline/core';
import { resolveConfig, startServer } from '@hookline/server';
import { startPhaseProfile } from './lib/phase-profile.ts';
import { storeThreadIds } from './lib/thread-cpu.ts';

const [role, adminToken] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'hookline-bench-server-'));
const config = resolveConfig({
  env: {},
  argv: {
    port: 0,
    host: '127.0.0.1',
    db: process.env.BENCH_DB ?? join(dir, 'hookline.db'),
    dataDir: dir,
    role,
    adminToken,
    masterKey: process.env.BENCH_MASTER_KEY ?? generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    logLevel: 'error',
  },
});
// BENCH_PROFILE_DIR (set by `npm run bench -- --profile`): the server's main thread is profiled until it stops.
const profileDir = process.env.BENCH_PROFILE_DIR;
const stopProfile = profileDir ? await startPhaseProfile(profileDir, `server-${role}`) : null;
const server = await startServer(config);
// The checkpointer starts after the migrations: give its thread a moment to report its id.
for (let i = 0; i < 50 && storeThreadIds(server.runtime.store).checkpointer === undefined; i++)
  await new Promise((r) => setTimeout(r, 20));
process.stdout.write(
  `${JSON.stringify({ url: server.url, pid: process.pid, threads: storeThreadIds(server.runtime.store) })}\n`,
);
const stop = async () => {
  await stopProfile?.();
  await server.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
