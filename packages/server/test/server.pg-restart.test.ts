// PostgreSQL restarted mid-run (docs/rules.md#accepted-on-disk): a `hookline serve` process on a PostgreSQL server of
// the test's own, which is restarted cleanly (`pg_ctl restart -m fast`, what `pg_ctlcluster … restart` does) and then
// crashed (its postmaster SIGKILLed, then started: crash recovery) — once while events arrive and once while a
// backlog drains. Ingest answers only 202 or 503 storage_unavailable, every 202'd event is delivered, and the same
// hookline process carries on by itself: it is never restarted and never exits.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { atProcessEnd, ownChild } from '@hookline/core/testing';
import pg from 'pg';
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from './fixtures/private-postgres.ts';
import { killHard, type ServeProcess, serveApi, startServe } from './fixtures/serve-process.ts';
import { startReceiver, until, within } from './server-harness.ts';

const waitFor = (what: string, check: () => boolean, timeoutMs: number) => until(check, Boolean, { what, timeoutMs });

const skip =
  postgresBinDir() === null && process.env.CI !== 'true'
    ? 'no PostgreSQL binaries under /usr/lib/postgresql (npm test installs and starts PostgreSQL)'
    : false;

const ADMIN = 'pg-restart-admin-token-0123456789';
const INGEST_EVENTS = 600;
const DRAIN_EVENTS = 1500;
const POSTERS = 8;

test('PostgreSQL restarted and crashed during ingest and during a drain: 202 or 503 only, every accepted event delivered, hookline never restarted', {
  skip,
  // Four restarts of a real PostgreSQL server (each a checkpoint or a crash recovery) plus 2,100 deliveries: about
  // 30 s on two idle cores; the default per-test bound is too tight for a loaded machine.
  timeout: 300_000,
}, async (ctx) => {
  // What the test waits for now: a run cut off at its timeout says so (the waits below fail by themselves, naming
  // theirs, well before it), and whatever it started is stopped on every path (the fixtures' `after` and exit hooks).
  let waitingFor = 'the private PostgreSQL to start';
  let finished = false;
  ctx.after(() => {
    if (!finished) console.error(`# pg-restart ended while waiting for ${waitingFor}`);
  });
  const db = await startPrivatePostgres({ after: ctx.after.bind(ctx) });
  assert.ok(db, 'PostgreSQL binaries are installed');
  console.log(`# private PostgreSQL: postmaster pid ${db.pid()}`);
  const dir = mkdtempSync(join(tmpdir(), 'hookline-pg-restart-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  atProcessEnd(removeDir);
  ctx.after(removeDir);
  const seen = new Set<string>();
  const receiver = await startReceiver((_n, req) => {
    seen.add(String(req.headers['x-webhook-id']));
    // A little latency keeps attempts in flight when the database goes away.
    return new Promise<number>((r) => setTimeout(() => r(200), 2));
  });
  ctx.after(() => receiver.close());
  let proc: ServeProcess | null = null;
  try {
    const admin = new pg.Client({ connectionString: db.url, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
    await admin.connect();
    await admin.query('CREATE DATABASE hookline');
    await admin.end();
    const url = db.url.replace(/\/postgres$/, '/hookline');
    waitingFor = 'hookline serve to listen';
    proc = await startServe(['--db', url, '--allow-http', '--allow-private-targets'], {
      HOOKLINE_ADMIN_TOKEN: ADMIN,
      HOOKLINE_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      HOOKLINE_DATA_DIR: join(dir, 'data'),
      HOOKLINE_LOG_LEVEL: 'error',
      // A record whose commit the restart made unknown is retried after its lease, not after 90 s.
      HOOKLINE_DISPATCHER_LEASE_MS: '5000',
    });
    const running = proc;
    ownChild(running.child, ctx.after.bind(ctx));
    let gone = false;
    void running.exited.then(() => (gone = true));
    /**
     * `p`, named: it fails at once if hookline serve exits first (the process must never exit here) and after `ms`
     * at the latest, saying what it waited for.
     */
    const phase = <T>(what: string, ms: number, p: Promise<T>): Promise<T> => {
      waitingFor = what;
      const exit = running.exited.then(() => {
        const how = running.child.exitCode ?? running.child.signalCode;
        throw new Error(`hookline serve exited (${how}) while waiting for ${what}; it said:\n${running.output()}`);
      });
      return within(what, ms, Promise.race([p, exit]));
    };
    const api = serveApi(() => running, ADMIN);
    const ten = (await api('POST', '/v1/tenants', { name: 'restart' })).body.id as string;
    assert.equal(
      (await api('POST', `/v1/tenants/${ten}/endpoints`, { url: receiver.url, timeout_ms: 2000 })).status,
      201,
    );

    const answers = new Map<string, number>();
    const bad: string[] = [];
    const acked = new Set<string>();
    /** POSTs one event until it is answered 202 (the client's retry with the same event_id is idempotent). */
    const post = async (eventId: string, onAnswer: () => void) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (gone) return; // the phase this post belongs to fails naming the exit
        let status: string;
        try {
          const r = await api('POST', `/v1/tenants/${ten}/events`, {
            event_id: eventId,
            type: 'order.created',
            data: { eventId },
          });
          status = r.status === 503 ? `503 ${r.body?.error?.code}` : String(r.status);
          if (r.status !== 202 && status !== '503 storage_unavailable')
            bad.push(`${eventId}: ${r.status} ${JSON.stringify(r.body)}`);
        } catch (err) {
          // The hookline process must keep answering: a refused or reset connection to it is a failure too.
          status = `no answer: ${(err as Error).message}`;
          bad.push(`${eventId}: ${status}`);
        }
        answers.set(status, (answers.get(status) ?? 0) + 1);
        onAnswer();
        if (status === '202') {
          acked.add(eventId);
          return;
        }
        if (Date.now() > deadline) {
          bad.push(`${eventId}: still refused after 60 s`);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const faults: Array<(p: PrivatePostgres) => Promise<void>> = [(p) => p.restart(), (p) => p.killAndStart()];

    // 1. During ingest: the restart at a third of the answers, the crash at two thirds (each after the one before).
    let answered = 0;
    let fired = 0;
    let faulting: Promise<void> = Promise.resolve();
    const pidsBefore = db.pid();
    const maybeFault = () => {
      answered++;
      if (fired < faults.length && answered >= ((fired + 1) * INGEST_EVENTS) / (faults.length + 1)) {
        const f = faults[fired++];
        faulting = faulting.then(() => f(db));
      }
    };
    // Posting goes on until both faults are over, so that each one meets requests in flight however fast it is.
    let faultsOver = false;
    let next = 0;
    await phase(
      'ingest through a restart and a crash',
      200_000,
      Promise.all([
        ...Array.from({ length: POSTERS }, async () => {
          for (let i = next++; (i < INGEST_EVENTS || !faultsOver) && !gone; i = next++)
            await post(`ingest_${i}`, maybeFault);
        }),
        waitFor('both faults fired', () => fired === faults.length, 120_000).then(async () => {
          await faulting;
          faultsOver = true;
        }),
      ]),
    );
    const ingested = acked.size;
    assert.equal(fired, 2);
    assert.notEqual(db.pid(), pidsBefore, 'the PostgreSQL server was restarted');
    assert.deepEqual(bad, [], 'ingest answered only 202 or 503 storage_unavailable');
    assert.equal(ingested, next - POSTERS, 'every event posted was answered 202 in the end');
    assert.ok(ingested >= INGEST_EVENTS);
    await phase(
      'every event accepted during ingest delivered',
      125_000,
      waitFor('every event accepted during ingest delivered', () => [...acked].every((id) => seen.has(id)), 120_000),
    );

    // 2. During a drain: a backlog is accepted in batches, then the server restarts and crashes while it is sent.
    const drainIds: string[] = [];
    for (let b = 0; b < DRAIN_EVENTS / 100; b++) {
      const items = Array.from({ length: 100 }, (_, i) => {
        const id = `drain_${b * 100 + i}`;
        drainIds.push(id);
        return { event_id: id, type: 'order.created', data: { id } };
      });
      const r = await phase(
        'a batch of the backlog accepted',
        20_000,
        api('POST', `/v1/tenants/${ten}/events/batch`, { events: items }),
      );
      assert.equal(r.status, 202, JSON.stringify(r.body));
    }
    const delivered = () => drainIds.filter((id) => seen.has(id)).length;
    const drained = (what: string, check: () => boolean, ms: number) =>
      phase(what, ms + 5000, waitFor(what, check, ms));
    await drained('a fifth of the backlog delivered', () => delivered() >= DRAIN_EVENTS / 5, 60_000);
    const atRestart = delivered();
    await phase('PostgreSQL restarted during the drain', 120_000, db.restart());
    await drained('more delivered after the restart', () => delivered() > atRestart, 60_000);
    const atCrash = delivered();
    await phase('PostgreSQL crashed and started during the drain', 120_000, db.killAndStart());
    await drained('the whole backlog delivered after the crash', () => delivered() === DRAIN_EVENTS, 120_000).catch(
      (err) => {
        throw new Error(`${(err as Error).message}; delivered ${delivered()}; hookline said:\n${running.output()}`);
      },
    );
    ctx.diagnostic(`drain: ${atRestart} delivered at the restart, ${atCrash} at the crash`);

    // Nothing was lost and nothing is left open; the hookline process is the one started at the beginning.
    assert.equal(proc.child.exitCode, null, 'hookline serve never exited');
    assert.equal(proc.child.signalCode, null);
    waitingFor = 'hookline serve ready after the faults';
    const ready = await fetch(`${proc.url}/readyz`, { signal: AbortSignal.timeout(15_000) });
    assert.equal(ready.status, 200);
    const check = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
    await check.connect();
    try {
      // Every delivery ends: one whose record the crash cut off (its attempt arrived, its commit did not) is sent
      // again once its lease (5 s) runs out, and recorded.
      const open = async () =>
        (
          await check.query(
            "SELECT count(*)::int AS n FROM deliveries WHERE status IN ('pending', 'delivering', 'held')",
          )
        ).rows[0].n as number;
      waitingFor = 'every delivery terminal';
      await until(open, (n) => n === 0, { what: 'every delivery terminal', timeoutMs: 60_000, everyMs: 200 });
      const events = await check.query('SELECT count(*)::int AS n FROM events');
      assert.equal(events.rows[0].n, ingested + DRAIN_EVENTS, 'one row per event, whatever the retries');
    } finally {
      await check.end();
    }
    finished = true;
    console.log(
      `pg-restart: ingest answers ${JSON.stringify(Object.fromEntries(answers))}; drain ${atRestart}/${atCrash} delivered at the restart/crash; receiver got ${receiver.received.length} requests for ${ingested + DRAIN_EVENTS} events`,
    );
  } finally {
    if (proc) await killHard(proc);
    await receiver.close();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
