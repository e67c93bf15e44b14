// Drain benchmark on PostgreSQL: N deliveries already queued, K worker processes, a fast loopback receiver.
// Prints one JSON line. The end of the drain is learned from the receiver (arrivals), never by querying the database
// under test; the PostgreSQL server's CPU per delivery (its processes' time in /proc) is reported beside the workers'. Usage: node --import tsx bench/postgres-drain.ts [--events 20000] [--workers 3]
//   [--warmup 2000] (deliveries the workers drain untimed first) [--endpoints 4] [--url postgres://postgres@127.0.0.1:5432/postgres] (a scratch database is created and dropped)
//   [--receiver http://127.0.0.1:PORT] (the run's shared loopback receiver; paths /pg/e0…; default: an in-process one)
//   [--profile-dir DIR] (each worker writes a CPU profile of its drain there).
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createHookline, createSender, generateMasterKey, openPostgresStore } from '@hookline/core';
import pg from 'pg';
import { postgresCpu, postgresCpuSince } from './lib/pg-cpu.ts';
import { startPhaseProfile } from './lib/phase-profile.ts';
import { benchPgBase } from './lib/scratch-pg.ts';

const self = fileURLToPath(import.meta.url);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function worker(): Promise<void> {
  const { url, masterKey, id, profileDir } = JSON.parse(process.env.HOOKLINE_BENCH_WORKER!);
  const store = await openPostgresStore(url, { poolMax: 8 });
  const engine = createHookline({
    store,
    masterKey,
    allowHttp: true,
    allowPrivateTargets: true,
    sender: createSender({ allowHttp: true, allowPrivateTargets: true, connectionsPerOrigin: 64 }),
    dispatcher: { workerId: id, logAttempts: false, batchSize: 200 },
    maintenance: { enabled: false },
  });
  // 'warm' dispatches the untimed warm-up, 'pause' stops dispatching (the HTTP pools and the learned concurrency stay),
  // 'start' starts the timed drain (the clock runs from there, not from the process's start-up); 'stop' ends it.
  let stopProfile: () => Promise<string | null> = async () => null;
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  process.on('message', async (msg) => {
    if (msg === 'warm') {
      engine.start();
      return;
    }
    if (msg === 'pause') {
      await engine.stopDispatching();
      process.send?.('paused');
      return;
    }
    if (msg === 'start') {
      stopProfile = await startPhaseProfile(profileDir, `postgres-drain-${id}`);
      cpuAtStart = process.cpuUsage();
      engine.start();
      return;
    }
    if (msg === 'cpu') {
      // Asked once the last delivery has arrived: this worker's CPU over the timed drain (its records included).
      const c = process.cpuUsage(cpuAtStart);
      process.send?.({ cpuUs: c.user + c.system });
      return;
    }
    await stopProfile();
    await engine.stop();
    await store.close();
    process.exit(0);
  });
  process.send?.('ready');
}

async function main(): Promise<void> {
  const events = Number(arg('events', '20000'));
  const workers = Number(arg('workers', '3'));
  const warmup = Number(arg('warmup', '2000'));
  const endpoints = Number(arg('endpoints', '4'));
  const base = arg('url', benchPgBase());
  const receiver = arg('receiver', '');
  const profileDir = arg('profile-dir', '') || undefined;
  const dbName = `hookline_bench_${process.pid}`;
  const admin = new pg.Client(base);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  const url = u.toString();

  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = receiver
    ? `${receiver.replace(/\/$/, '')}/pg`
    : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const masterKey = generateMasterKey();
  const store = await openPostgresStore(url, { poolMax: 4 });
  const api = createHookline({
    store,
    masterKey,
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
  });
  const now = Date.now();
  await store.catalog.createTenant({
    id: 'ten_BENCH',
    name: 'bench',
    ownerEmails: [],
    operationsEndpointId: null,
    notifyEmail: false,
    createdAt: now,
    updatedAt: now,
  });
  for (let e = 0; e < endpoints; e++) {
    await api.endpoints.create('ten_BENCH', { url: `${target}/e${e}`, max_concurrency: 100, event_types: [`e${e}.*`] });
  }
  const seed = async (from: number, n: number) => {
    for (let i = from; i < from + n; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, from + n - i) }, (_, k) => ({
        type: `e${(i + k) % endpoints}.x`,
        data: { n: i + k },
      }));
      await api.events.acceptMany('ten_BENCH', batch);
    }
  };
  // Arrivals at the receiver tell when a drain is done: the shared receiver's count (another process), or this
  // process's own server's. Polling the database under test would add its own load to what is measured.
  const control = (path: string) =>
    fetch(`${receiver.replace(/\/$/, '')}${path}`, { method: path === '/__reset' ? 'POST' : 'GET' }).then((r) =>
      r.json(),
    );
  if (receiver) await control('/__reset');
  const arrivals = async (): Promise<number> => (receiver ? (await control('/__stats')).count : received);
  const arrived = async (n: number) => {
    while ((await arrivals()) < n) await new Promise((r) => setTimeout(r, 20));
  };

  const children = [];
  for (let w = 0; w < workers; w++) {
    const child = fork(self, [], {
      // As the bench's other children: the compiled packages, unless BENCH_SOURCE=1 (bench/lib/children.ts).
      execArgv: [...(process.env.BENCH_SOURCE === '1' ? ['--conditions=source'] : []), '--import', 'tsx'],
      env: {
        ...process.env,
        HOOKLINE_BENCH_WORKER: JSON.stringify({ url, masterKey, id: `wrk_bench_${w}`, profileDir }),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
  }
  await Promise.all(children.map((c) => new Promise((r) => c.once('message', r))));
  // Untimed warm-up on the same path, as every scenario has (JIT, each worker's keep-alive connections, the
  // endpoints' learned concurrency): long-running workers do not open their connections during a drain.
  if (warmup > 0) {
    await seed(events, warmup);
    for (const c of children) c.send('warm');
    await arrived(warmup);
    await Promise.all(
      children.map((c) => {
        const paused = new Promise((r) => c.once('message', r));
        c.send('pause');
        return paused;
      }),
    );
  }
  const seedStart = Date.now();
  await seed(0, events);
  const seedMs = Date.now() - seedStart;
  const pgCpu0 = postgresCpu();
  const t0 = Date.now();
  for (const c of children) c.send('start');
  await arrived(warmup + events);
  const seconds = (Date.now() - t0) / 1000;
  const pgCpuUs = postgresCpuSince(pgCpu0);
  const workerCpu = await Promise.all(
    children.map((c) => {
      const answer = new Promise<{ cpuUs: number }>((r) => c.once('message', (m) => r(m as { cpuUs: number })));
      c.send('cpu');
      return answer;
    }),
  );
  for (const c of children) c.send('stop');
  await Promise.all(children.map((c) => new Promise((r) => c.once('exit', r))));
  await api.stop();
  await store.close();
  server.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  console.log(
    JSON.stringify({
      bench: 'postgres-drain',
      events,
      warmup,
      workers,
      endpoints,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSec: Math.round(events / seconds),
      seedEventsPerSec: Math.round(events / (seedMs / 1000)),
      pgCpuUsPerDelivery: pgCpuUs === null ? null : Math.round(pgCpuUs / events),
      workersCpuUsPerDelivery: Math.round(workerCpu.reduce((a, w) => a + w.cpuUs, 0) / events),
      requestsReceived: receiver ? null : received,
    }),
  );
}

if (process.env.HOOKLINE_BENCH_WORKER) await worker();
else await main();
