// SIGKILL a receiver with 1,000 events accepted and about half handled; after a restart every event is handled,
// and the only duplicates are runs that were in flight at the kill.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import Database from 'better-sqlite3';
// The shared deadline helpers (no imports of their own; the receiver package does not depend on the engine).
import { ownChild } from '../../core/testing/children.ts';
import { until, within } from '../../core/testing/deadline.ts';
import { signWebhook } from '../src/sign.ts';

const EVENTS = 1000;
const SENDERS = 50;
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const fixture = new URL('./fixtures/inbox-receiver.ts', import.meta.url).pathname;

/** A receiver process (the inbox fixture) listening on a loopback port, not the in-process test receiver. */
interface ReceiverProcess {
  child: ChildProcess;
  port: number;
  exited: Promise<NodeJS.Signals | number | null>;
}

async function startReceiverProcess(dbPath: string): Promise<ReceiverProcess> {
  // Dies with this process however it ends (the test SIGKILLs it on purpose; a run cut off must not leave it listening).
  const child = ownChild(
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
      env: { ...process.env, INBOX_DB: dbPath, INBOX_SECRET: secret, INBOX_LEASE_MS: '1000' },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const port = await within(
    'the receiver to listen',
    30_000,
    new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (line) =>
        resolve((JSON.parse(line) as { port: number }).port),
      );
      child.once('exit', (code) => reject(new Error(`receiver exited (${code}) before listening`)));
    }),
  );
  return { child, port, exited };
}

function post(agent: Agent, port: number, id: string): Promise<number> {
  const body = JSON.stringify({
    event_id: id,
    type: 'order.shipped',
    version: 1,
    occurred_at: '2025-06-15T12:00:00Z',
    data: { order_id: id },
  });
  const headers = signWebhook({ secrets: secret, id, body });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`POST ${id} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

test(`SIGKILL with ${EVENTS} events accepted and about half handled: after a restart each is handled, duplicates only from runs in flight`, {
  // 1,000 events over HTTP into a receiver process, a SIGKILL and a restart: deadlines of 60 s and 90 s for the runs.
  timeout: 150_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-inbox-kill-'));
  const dbPath = join(dir, 'receiver.db');
  let receiver: ReceiverProcess | undefined;
  let observer: Database.Database | undefined;
  try {
    receiver = await startReceiverProcess(dbPath);
    const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
    const ids = Array.from({ length: EVENTS }, (_, i) => `evt_kill_${String(i).padStart(4, '0')}`);
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (next < ids.length) statuses.push(await post(agent, receiver!.port, ids[next++]!));
      }),
    );
    agent.destroy();
    assert.equal(statuses.filter((s) => s === 202).length, EVENTS, 'every event acknowledged');

    observer = new Database(dbPath, { readonly: true });
    const handled = observer.prepare<[], { n: number }>('SELECT count(*) AS n FROM side_effects');
    const inbox = observer.prepare<[], { state: string; n: number }>(
      'SELECT state, count(*) AS n FROM hookline_receiver_inbox GROUP BY state',
    );
    const states = () => Object.fromEntries(inbox.all().map((r) => [r.state, r.n])) as Record<string, number>;
    assert.equal(states().pending, EVENTS, 'all stored before any handler ran');

    receiver.child.stdin!.write('start\n');
    await until(() => handled.get()!.n >= EVENTS / 2, undefined, {
      what: 'half the events handled',
      timeoutMs: 60_000,
      everyMs: 5,
    });
    receiver.child.kill('SIGKILL');
    assert.equal(await within('the killed receiver to exit', 10_000, receiver.exited), 'SIGKILL');
    const atKill: Record<string, number> = { handled: handled.get()!.n, ...states() };
    const inFlight = atKill.running ?? 0;

    receiver = await startReceiverProcess(dbPath);
    receiver.child.stdin!.write('start\n');
    await until(() => states().done === EVENTS, undefined, {
      what: 'every event done after the restart',
      timeoutMs: 90_000,
      everyMs: 5,
    });
    receiver.child.kill('SIGTERM');
    await within('the restarted receiver to stop', 10_000, receiver.exited);

    const runs = observer
      .prepare<[], { event_id: string; runs: number }>('SELECT event_id, runs FROM side_effects')
      .all();
    const byId = new Map(runs.map((r) => [r.event_id, r.runs]));
    const missing = ids.filter((id) => (byId.get(id) ?? 0) < 1);
    const duplicates = runs.reduce((sum, r) => sum + r.runs - 1, 0);
    const counts = {
      events: EVENTS,
      handled_at_kill: atKill.handled,
      inbox_at_kill: { pending: atKill.pending ?? 0, running: inFlight, done: atKill.done ?? 0 },
      handled_after_restart: byId.size,
      missing: missing.length,
      duplicate_runs: duplicates,
      in_flight_at_kill: inFlight,
    };
    t.diagnostic(`counts ${JSON.stringify(counts)}`);
    console.log(JSON.stringify({ test: 'inbox.sigkill', ...counts }));
    assert.deepEqual(missing, [], 'every accepted event handled at least once');
    assert.ok(atKill.handled! < EVENTS, 'the kill came before the work was finished');
    assert.ok(
      duplicates <= inFlight,
      `${duplicates} duplicate runs, but only ${inFlight} handlers were in flight at the kill`,
    );
    assert.equal(states().done, EVENTS);
  } finally {
    if (receiver !== undefined && receiver.child.exitCode === null && receiver.child.signalCode === null)
      receiver.child.kill('SIGKILL');
    observer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
