// SIGKILL ×5 during 5,000 events: a real `hookline serve` on a SQLite file is killed at random moments while events
// arrive over HTTP and deliveries go out; after the last restart every 202'd event was delivered and is `succeeded`,
// an event whose POST got no answer is either absent or whole, and only deliveries in flight at a kill are repeated.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startReceiver } from '@hookline/core/testing';
import { readDb } from './fixtures/read-sqlite.ts';
import { killHard, type ServeProcess, serveApi, startServe } from './fixtures/serve-process.ts';

const EVENTS = 5000;
const KILLS = 5;
const POSTERS = 16;
// Long enough that a live process's record commit outlasts no lease even on a loaded 2-core machine (a lapsed lease
// would repeat a send without any kill); short enough that a restarted process takes over within seconds.
const LEASE_MS = 6000;
const ADMIN = 'sigkill-admin-token-0123456789';

/** mulberry32: the kill moments are random but reproducible from the printed seed. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test(`SIGKILL ×${KILLS} during ${EVENTS} events: nothing 202'd is lost, nothing half-written, duplicates only from in-flight deliveries`, {
  // 5,000 events over HTTP into a real `hookline serve` killed and restarted 5 times, then a drain of up to 120 s.
  timeout: 240_000,
}, async () => {
  const seed = Number(process.env.HOOKLINE_SIGKILL_SEED ?? Date.now() % 1_000_000);
  const random = seeded(seed);
  const dir = mkdtempSync(join(tmpdir(), 'hookline-sigkill-'));
  const db = join(dir, 'hookline.db');
  const env = {
    HOOKLINE_ADMIN_TOKEN: ADMIN,
    HOOKLINE_MASTER_KEY: Buffer.alloc(32, 5).toString('base64'),
    HOOKLINE_DATA_DIR: join(dir, 'data'),
    HOOKLINE_LOG_LEVEL: 'error',
    HOOKLINE_DISPATCHER_LEASE_MS: String(LEASE_MS),
  };
  const args = ['--db', db, '--allow-http', '--allow-private-targets'];

  // The receiver counts requests per delivery id and per event id; a little latency keeps attempts in flight.
  const perDelivery = new Map<string, number>();
  const eventsSeen = new Set<string>();
  const receiver = await startReceiver((_n, req) => {
    const id = String(req.headers['x-webhook-delivery']);
    perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    eventsSeen.add(String(req.headers['x-webhook-id']));
    onProgress();
    return new Promise<number>((r) => setTimeout(() => r(200), 3));
  });
  const hookUrl = receiver.url;

  let proc: ServeProcess = await startServe(args, env);
  const api = serveApi(() => proc, ADMIN);

  const acked = new Set<string>();
  const unexpected: string[] = [];
  const unanswered = new Set<string>();
  const inFlightAtKill = new Set<string>();
  const killMoments = Array.from({ length: KILLS }, () => Math.floor((0.05 + random() * 0.85) * EVENTS * 2)).sort(
    (a, b) => a - b,
  );
  let nextKill = 0;
  let up: Promise<void> = Promise.resolve();
  let killing = false;
  let kills = 0;

  async function killAndRestart(): Promise<void> {
    killing = true;
    let restarted!: () => void;
    up = new Promise((r) => (restarted = r));
    await killHard(proc);
    kills++;
    // Read while nobody writes: what was in flight when the process died, i.e. sent (the receiver saw it more often)
    // and not recorded. The file keeps no lease of the dead process to read (docs/rules.md#sqlite-leases).
    const recordedAtKill = new Map(
      (
        readDb(db, (d) =>
          d.prepare('SELECT delivery_id AS id, count(*) AS n FROM attempts GROUP BY delivery_id').all(),
        ) as Array<{ id: string; n: number }>
      ).map((r) => [r.id, r.n]),
    );
    for (const [id, n] of perDelivery) if (n > (recordedAtKill.get(id) ?? 0)) inFlightAtKill.add(id);
    proc = await startServe(args, env);
    killing = false;
    restarted();
    onProgress();
  }
  let restarting: Promise<void> = Promise.resolve();
  function onProgress(): void {
    // Progress runs 0 … 2 × EVENTS: events acknowledged plus events that reached the receiver.
    if (killing || nextKill >= killMoments.length || acked.size + eventsSeen.size < killMoments[nextKill]) return;
    nextKill++;
    restarting = killAndRestart();
  }

  try {
    const ten = await api('POST', '/v1/tenants', { name: 'crash' });
    assert.equal(ten.status, 201);
    const tenant = ten.body.id as string;
    const ep = await api('POST', `/v1/tenants/${tenant}/endpoints`, {
      url: hookUrl,
      policy: 'standard',
      timeout_ms: 3000,
      max_concurrency: 50,
    });
    assert.equal(ep.status, 201, JSON.stringify(ep.body));

    let next = 0;
    const poster = async () => {
      for (;;) {
        const i = next++;
        if (i >= EVENTS) return;
        await up;
        const eventId = `e${i}`;
        try {
          const r = await fetch(`${proc.url}/v1/tenants/${tenant}/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ event_id: eventId, type: 'order.created', data: { i, pad: 'x'.repeat(100) } }),
            signal: AbortSignal.timeout(15_000),
          });
          await r.arrayBuffer();
          if (r.status === 202) acked.add(eventId);
          else {
            // A live server answers 202 to every one of these; anything else must come from a dying process.
            if (!killing && r.status < 500) unexpected.push(`${eventId}: ${r.status}`);
            unanswered.add(eventId);
          }
        } catch {
          unanswered.add(eventId); // connection reset or refused by the killed process
        }
        onProgress();
      }
    };
    await Promise.all(Array.from({ length: POSTERS }, poster));
    // Kill moments not reached while posting land during the drain.
    while (nextKill < killMoments.length) {
      await restarting;
      if (nextKill < killMoments.length && !killing) {
        nextKill++;
        restarting = killAndRestart();
      }
    }
    await restarting;
    assert.equal(kills, KILLS);
    assert.deepEqual(unexpected, [], 'a live server refused events it should accept');

    // Drain: after the last restart everything present ends terminal (bounded wait).
    const deadline = Date.now() + 120_000;
    for (;;) {
      const open = readDb(
        db,
        (d) =>
          (
            d.prepare("SELECT count(*) AS n FROM deliveries WHERE status IN ('pending','delivering','held')").get() as {
              n: number;
            }
          ).n,
      );
      if (open === 0) break;
      if (Date.now() > deadline) {
        const detail = readDb(db, (d) =>
          d
            .prepare(
              "SELECT status, count(*) AS n, min(next_attempt_at) AS next, min(lease_until) AS lease FROM deliveries WHERE status IN ('pending','delivering','held') GROUP BY status",
            )
            .all(),
        );
        assert.fail(
          `${open} deliveries still open after the drain deadline: ${JSON.stringify(detail)} (now ${Date.now()})`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }

    const rows = readDb(db, (d) =>
      d
        .prepare(
          'SELECT e.event_id AS eventId, count(d.id) AS n, group_concat(d.status) AS statuses FROM events e LEFT JOIN deliveries d ON d.event_pk = e.id GROUP BY e.id',
        )
        .all(),
    ) as Array<{ eventId: string; n: number; statuses: string | null }>;
    const stored = new Map(rows.map((r) => [r.eventId, r]));
    assert.equal(acked.size + unanswered.size, EVENTS);
    for (const id of acked) {
      const r = stored.get(id);
      assert.ok(r, `${id} was answered 202 but is not in the database`);
      assert.deepEqual([r.n, r.statuses], [1, 'succeeded'], `${id} was answered 202`);
      assert.ok(eventsSeen.has(id), `${id} was answered 202 but never reached the receiver`);
    }
    let unansweredStored = 0;
    for (const id of unanswered) {
      const r = stored.get(id);
      if (!r) continue;
      unansweredStored++;
      // Present means whole: the event with its delivery, delivered like any other.
      assert.deepEqual([r.n, r.statuses], [1, 'succeeded'], `${id} (no 202) is half-written`);
      assert.ok(eventsSeen.has(id));
    }
    assert.equal(stored.size, acked.size + unansweredStored, 'no event in the database that was never posted');

    // A duplicate is a send the store has no attempt for (a recorded timeout that is retried is a retry, not a duplicate).
    const recorded = new Map(
      (
        readDb(db, (d) =>
          d.prepare('SELECT delivery_id AS id, count(*) AS n FROM attempts GROUP BY delivery_id').all(),
        ) as Array<{ id: string; n: number }>
      ).map((r) => [r.id, r.n]),
    );
    const duplicated = [...perDelivery].filter(([id, n]) => n > (recorded.get(id) ?? 0)).map(([id]) => id);
    const retried = [...recorded.values()].filter((n) => n > 1).length;
    for (const id of duplicated)
      assert.ok(inFlightAtKill.has(id), `${id} was sent twice but was not leased at any kill`);
    assert.ok(duplicated.length <= inFlightAtKill.size);
    console.log(
      `sigkill seed=${seed} kills=${kills} at progress ${killMoments.join(',')}: acked=${acked.size} unanswered=${unanswered.size} ` +
        `(stored ${unansweredStored}) delivered=${perDelivery.size} duplicates=${duplicated.length} retried-after-recorded-failure=${retried} leased-at-kills=${inFlightAtKill.size}`,
    );
  } finally {
    await killHard(proc).catch(() => {});
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
