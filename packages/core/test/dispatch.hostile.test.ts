// Hostile receivers through the whole engine (dispatcher + store + sender) over loopback: each attempt is classified
// per docs/rules.md#outcome-classes, ends at the endpoint's timeout, the worker's memory stays bounded, and the next delivery on the same
// origin is unaffected.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { AttemptEvent } from '../src/dispatch/observers.ts';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { tempStore } from '../testing/harness.ts';
import { H } from '../testing/time.ts';

const TIMEOUT_MS = 1000;
const GB = 1024 ** 3;

interface Expect {
  outcome: 'success' | 'delivery_failure' | 'client_error';
  errorClass: string | null;
  status: number | null;
  /** Ended by the deadline: duration at least the timeout. */
  timedOut?: boolean;
}

const CASES: Record<string, Expect> = {
  never: { outcome: 'delivery_failure', errorClass: 'timeout', status: null, timedOut: true },
  'stall-after-headers': { outcome: 'delivery_failure', errorClass: 'timeout', status: 200, timedOut: true },
  trickle: { outcome: 'delivery_failure', errorClass: 'timeout', status: 200, timedOut: true },
  'late-200': { outcome: 'delivery_failure', errorClass: 'timeout', status: null, timedOut: true },
  'gigabyte-body': { outcome: 'success', errorClass: null, status: 200 },
  'reset-mid-response': { outcome: 'delivery_failure', errorClass: 'connection', status: 200 },
  redirect: { outcome: 'client_error', errorClass: 'status', status: 302 },
  'retry-after-huge': { outcome: 'delivery_failure', errorClass: 'status', status: 429 },
};

test('hostile receivers: classified per docs/rules.md#outcome-classes, bounded in time and memory, the next delivery unaffected', {
  timeout: 120_000,
}, async () => {
  let gigabyteWritten = 0;
  let redirectFollowed = 0;
  const closed = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const mode = (req.url ?? '/').slice(1);
    let done!: () => void;
    closed.set(mode, new Promise<void>((r) => (done = r)));
    res.on('close', () => done());
    req.resume();
    req.on('end', () => {
      switch (mode) {
        case 'never':
          hanging.add(res);
          return;
        case 'stall-after-headers':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.flushHeaders();
          hanging.add(res);
          return;
        case 'trickle': {
          res.writeHead(200, { 'content-type': 'text/plain' });
          const t = setInterval(() => res.write('x'), 20);
          timers.add(t);
          res.on('close', () => clearInterval(t));
          return;
        }
        case 'late-200': {
          const t = setTimeout(() => res.writeHead(200).end('too late'), TIMEOUT_MS * 2);
          timers.add(t);
          return;
        }
        case 'gigabyte-body': {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(GB) });
          const chunk = Buffer.alloc(64 * 1024, 0x61);
          const pump = () => {
            while (gigabyteWritten < GB && !res.destroyed) {
              gigabyteWritten += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end();
          };
          pump();
          return;
        }
        case 'reset-mid-response':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
          res.write('partial', () => req.socket.resetAndDestroy());
          return;
        case 'redirect':
          res.writeHead(302, { location: '/redirect-target' }).end();
          return;
        case 'redirect-target':
          redirectFollowed++;
          res.writeHead(200).end();
          return;
        case 'retry-after-huge':
          res.writeHead(429, { 'retry-after': '999999999' }).end('slow down');
          return;
        default:
          res.writeHead(200).end('ok');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const temp = await tempStore();
  const engine = createHookline({
    store: temp.store,
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { logAttempts: false, pollMs: 50 },
    maintenance: { enabled: false },
  });
  const seen = new Map<string, AttemptEvent>();
  const waiters = new Map<string, (e: AttemptEvent) => void>();
  engine.addObserver({
    attempt: (e) => {
      seen.set(e.attempt.deliveryId, e);
      waiters.get(e.attempt.deliveryId)?.(e);
    },
  });
  const attemptOf = (deliveryId: string, ms = 30_000) =>
    new Promise<AttemptEvent>((resolve, reject) => {
      const got = seen.get(deliveryId);
      if (got) return resolve(got);
      const t = setTimeout(() => reject(new Error(`no attempt for ${deliveryId} within ${ms} ms`)), ms);
      waiters.set(deliveryId, (e) => {
        clearTimeout(t);
        resolve(e);
      });
    });

  let peakRss = 0;
  const baseRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  try {
    const now = Date.now();
    await temp.store.catalog.createTenant({
      id: 'ten_HOSTILE',
      name: 'hostile',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: now,
      updatedAt: now,
    });
    // One origin for all of them: a hostile path must not poison the pool the good endpoint shares.
    const endpoints = new Map<string, string>();
    for (const mode of [...Object.keys(CASES), 'good']) {
      const { endpoint } = await engine.endpoints.create('ten_HOSTILE', {
        url: `${origin}/${mode}`,
        policy: 'standard',
        timeout_ms: TIMEOUT_MS,
        event_types: [`hostile.${mode}`],
      });
      endpoints.set(mode, endpoint.id);
    }
    engine.start();
    const deliveryFor = async (mode: string, n = 1) => {
      const r = await engine.events.accept('ten_HOSTILE', {
        event_id: `${mode}-${n}`,
        type: `hostile.${mode}`,
        data: { mode },
      });
      return r.deliveries[0].id;
    };
    const ids = new Map<string, string>();
    for (const mode of Object.keys(CASES)) ids.set(mode, await deliveryFor(mode));

    for (const [mode, want] of Object.entries(CASES)) {
      const { attempt, next } = await attemptOf(ids.get(mode)!);
      assert.deepEqual(
        [attempt.outcome, attempt.errorClass, attempt.responseStatus],
        [want.outcome, want.errorClass, want.status],
        `${mode}: ${attempt.errorMessage}`,
      );
      if (want.timedOut) {
        assert.ok(attempt.durationMs >= TIMEOUT_MS - 5, `${mode} ended before its timeout (${attempt.durationMs} ms)`);
        assert.match(attempt.errorMessage ?? '', new RegExp(`no full response within ${TIMEOUT_MS} ms`), mode);
      }
      // Ended by the deadline, not by the receiver: a generous bound that only a missing deadline would break.
      assert.ok(
        attempt.durationMs < TIMEOUT_MS * 10,
        `${mode} took ${attempt.durationMs} ms with a ${TIMEOUT_MS} ms timeout`,
      );
      assert.ok((attempt.responseExcerpt ?? '').length <= 4096, `${mode}: excerpt capped`);
      // A success is done; every failure retries on `standard` (3xx and 4xx included); none is left in flight.
      const status = want.outcome === 'success' ? 'succeeded' : 'pending';
      assert.equal(next.status, status, mode);
      const stored = await temp.store.reporting.getDelivery('ten_HOSTILE', ids.get(mode)!);
      assert.equal(stored?.status, status, mode);
      if (mode === 'retry-after-huge') {
        // Retry-After: 999999999 s is capped by the policy (standard: 10 h), counted from the attempt's end.
        const wait = stored!.nextAttemptAt! - (attempt.startedAt + attempt.durationMs);
        assert.ok(wait <= 10 * H + 1000 && wait >= 10 * H - 1000, `next attempt in ${wait} ms`);
      }
      // The sender hung up: the receiver's response is closed (never drained or left open).
      if (mode !== 'late-200' && mode !== 'redirect' && mode !== 'retry-after-huge') await closed.get(mode);
    }
    const huge = (await attemptOf(ids.get('gigabyte-body')!)).attempt;
    assert.ok((huge.responseExcerpt ?? '').length > 0 && Buffer.byteLength(huge.responseExcerpt ?? '') <= 4096);
    assert.ok(
      gigabyteWritten < 64 * 1024 * 1024,
      `the 1 GB body was streamed, not read: the receiver wrote ${gigabyteWritten} bytes`,
    );
    assert.equal(redirectFollowed, 0, 'a 3xx is never followed');
    assert.ok(peakRss - baseRss < 256 * 1024 * 1024, `memory grew by ${Math.round((peakRss - baseRss) / 1048576)} MB`);

    // The next deliveries on the same origin, after all of that: unaffected.
    const good = await Promise.all([1, 2, 3].map((n) => deliveryFor('good', n)));
    for (const id of good) {
      const { attempt } = await attemptOf(id);
      assert.deepEqual([attempt.outcome, attempt.responseStatus, attempt.responseExcerpt], ['success', 200, 'ok']);
      assert.equal((await temp.store.reporting.getDelivery('ten_HOSTILE', id))?.status, 'succeeded');
    }
    assert.equal(engine.inFlight, 0);
  } finally {
    clearInterval(sampler);
    await engine.stop();
    for (const t of timers) clearTimeout(t);
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    server.close();
    await temp.cleanup();
  }
});
