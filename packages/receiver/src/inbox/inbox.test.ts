import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWebhookHandler } from '../handler.ts';
import type { LogLine } from '../log-line.ts';
import { signWebhook } from '../sign.ts';
import type { WebhookEvent } from '../webhook-event.ts';
import { createInbox, type InboxOptions } from './inbox.ts';
import { memoryInbox } from './memory-inbox.ts';

const T = 1_750_000_000;
const secret = { kid: 'k1', secret: 'inbox test secret' };
const schema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['order_id'] } },
} as const;

function signed(id: string, data: Record<string, unknown> = { order_id: 'ord_1' }) {
  const body = JSON.stringify({
    event_id: id,
    type: 'order.shipped',
    version: 1,
    occurred_at: '2025-06-15T12:00:00Z',
    data,
  });
  return {
    headers: signWebhook({ secrets: secret, id, deliveryId: `dlv_${id}`, timestamp: T, body }),
    rawBody: Buffer.from(body),
  };
}

function setup(handle: (event: WebhookEvent) => unknown = () => {}, overrides: Partial<InboxOptions> = {}) {
  const clock = { ms: T * 1000 };
  const logs: LogLine[] = [];
  const runs: WebhookEvent[] = [];
  const store = memoryInbox();
  const inbox = createInbox({
    store,
    now: () => clock.ms,
    logger: (line) => logs.push(line),
    events: {
      'order.shipped': {
        schema,
        handle: async (event) => {
          runs.push(event);
          await handle(event);
        },
      },
    },
    ...overrides,
  });
  const receive = createWebhookHandler({
    secrets: [secret],
    inbox,
    now: () => clock.ms,
    logger: (line) => logs.push(line),
  });
  return { inbox, store, receive, clock, logs, runs };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** Fails instead of hanging when what a test waits for never happens. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
  );
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe('inbox through the handler', () => {
  test('202 only once the event is stored; the handler runs later from the stored copy, not the request', async () => {
    const { receive, inbox, runs } = setup();
    const request = signed('evt_1');
    const res = await receive(request);
    assert.equal(res.status, 202);
    assert.deepEqual(JSON.parse(res.body), { ok: true, event_id: 'evt_1' });
    const stored = await inbox.get('evt_1');
    assert.equal(stored?.state, 'pending');
    assert.deepEqual(Buffer.from(stored!.body), request.rawBody);
    assert.equal(stored?.headers['x-webhook-signature'], request.headers['x-webhook-signature']);
    assert.equal(stored?.receivedAt, T * 1000);
    assert.equal(runs.length, 0, 'nothing runs in the request');
    request.rawBody.fill(0x20); // the caller's buffer may be reused: the stored copy is what runs
    assert.equal(await inbox.runOnce(), 1);
    assert.deepEqual(
      [runs[0]!.id, runs[0]!.deliveryId, runs[0]!.attempt, runs[0]!.payload.data.order_id],
      ['evt_1', 'dlv_evt_1', 1, 'ord_1'],
    );
    assert.equal((await inbox.get('evt_1'))?.state, 'done');
  });

  test('a duplicate, queued or done, answers the same 2xx and never runs twice', async () => {
    const { receive, inbox, runs, logs } = setup();
    const first = await receive(signed('evt_dup'));
    const queued = await receive(signed('evt_dup'));
    await inbox.runOnce();
    const done = await receive(signed('evt_dup'));
    assert.equal(await inbox.runOnce(), 0);
    assert.equal(runs.length, 1);
    for (const again of [queued, done]) assert.deepEqual([again.status, again.body], [first.status, first.body]);
    assert.deepEqual(
      logs.filter((l) => l.code === 'event_already_seen').map((l) => l.state),
      ['pending', 'done'],
    );
  });

  test('bad input is refused with its 4xx and stored nowhere; an unknown type is acknowledged, not stored', async () => {
    const { receive, inbox } = setup();
    const missing = await receive(signed('evt_bad', { nope: 1 }));
    assert.deepEqual(
      [missing.status, JSON.parse(missing.body).code, JSON.parse(missing.body).message],
      [400, 'missing_required_field', 'missing required field data.order_id'],
    );
    const body = '{"event_id":"evt_unk","type":"refund.created"}';
    const unknown = await receive({
      headers: signWebhook({ secrets: secret, id: 'evt_unk', timestamp: T, body }),
      rawBody: body,
    });
    assert.equal(unknown.status, 202);
    const forged = await receive({ ...signed('evt_forged'), rawBody: Buffer.from('{"event_id":"evt_forged"}') });
    assert.equal(forged.status, 401);
    for (const id of ['evt_bad', 'evt_unk', 'evt_forged']) assert.equal(await inbox.get(id), undefined, id);
    assert.equal(await inbox.runOnce(), 0);
  });

  test('storage down: 503 with Retry-After and no 2xx; once it is back the redelivery is stored', async () => {
    const { receive, store, inbox, runs } = setup();
    store.setUnavailable(true);
    const down = await receive(signed('evt_down'));
    assert.deepEqual(
      [down.status, down.headers['retry-after'], JSON.parse(down.body).code],
      [503, '10', 'storage_unavailable'],
    );
    store.setUnavailable(false);
    assert.equal(await inbox.get('evt_down'), undefined, 'nothing was acknowledged, nothing stored');
    assert.equal((await receive(signed('evt_down'))).status, 202);
    await inbox.runOnce();
    assert.equal(runs.length, 1);
  });

  test('a store slower than storeTimeoutMs is a 503, never a hang', async () => {
    const store = memoryInbox();
    const inbox = createInbox({
      store: { ...store, accept: () => new Promise(() => {}) },
      events: { 'order.shipped': { handle: () => {} } },
      logger: () => {},
    });
    const receive = createWebhookHandler({
      secrets: [secret],
      inbox,
      now: () => T * 1000,
      storeTimeoutMs: 50,
      logger: () => {},
    });
    assert.equal((await receive(signed('evt_slow'))).status, 503);
  });

  test('options that make no sense with an inbox are refused at construction', () => {
    const inbox = createInbox({ store: memoryInbox(), events: {} });
    assert.throws(() => createWebhookHandler({ secrets: [secret], inbox, events: {} }), /give `events` to createInbox/);
    assert.throws(() => createWebhookHandler({ secrets: [secret], inbox, ackMode: 'after-handler' }), /after-handler/);
    assert.throws(() => createWebhookHandler({ secrets: [secret] }), /exactly one of `inbox`/);
    assert.throws(
      () => createInbox({ store: memoryInbox(), events: {}, leaseMs: 0 }),
      /leaseMs must be a positive number/,
    );
    assert.throws(() => createInbox({ store: memoryInbox(), events: {}, retry: { factor: 0 } }), /retry\.factor/);
  });
});

describe('inbox worker', () => {
  test('a handler that throws is retried with backoff (1 s, then 2 s) and then succeeds', async () => {
    let failuresLeft = 2;
    const { receive, inbox, clock, runs, logs } = setup(() => {
      if (failuresLeft-- > 0) throw new Error('smtp down');
    });
    await receive(signed('evt_retry'));
    assert.equal(await inbox.runOnce(), 1);
    let entry = await inbox.get('evt_retry');
    assert.deepEqual(
      [entry?.state, entry?.failures, entry?.error, entry?.availableAt],
      ['pending', 1, 'smtp down', clock.ms + 1000],
    );
    clock.ms += 999;
    assert.equal(await inbox.runOnce(), 0, 'not before its backoff');
    clock.ms += 1;
    assert.equal(await inbox.runOnce(), 1);
    entry = await inbox.get('evt_retry');
    assert.deepEqual([entry?.failures, entry!.availableAt - clock.ms], [2, 2000], 'the delay doubles');
    clock.ms += 2000;
    await inbox.runOnce();
    assert.equal((await inbox.get('evt_retry'))?.state, 'done');
    assert.deepEqual(
      runs.map((r) => r.attempt),
      [1, 2, 3],
    );
    assert.deepEqual(
      logs.filter((l) => l.msg === 'inbox handler failed, retry scheduled').map((l) => l.retry_in_ms),
      [1000, 2000],
    );
  });

  test('one that keeps failing goes to the dead letter with its error; retry(id) runs it again', async () => {
    let broken = true;
    const { receive, inbox, clock, runs } = setup(
      () => {
        if (broken) throw new Error('template missing');
      },
      { retry: { maxAttempts: 3, initialDelayMs: 10 } },
    );
    await receive(signed('evt_dead'));
    for (let i = 0; i < 3; i++) {
      assert.equal(await inbox.runOnce(), 1);
      clock.ms += 1000;
    }
    assert.equal(runs.length, 3);
    assert.equal(await inbox.runOnce(), 0, 'dead letters are not retried by themselves');
    const [dead, ...rest] = await inbox.deadLetters();
    assert.deepEqual(
      [dead?.eventId, dead?.state, dead?.error, dead?.failures, rest.length],
      ['evt_dead', 'dead', 'template missing', 3, 0],
    );
    assert.equal(await inbox.retry('evt_nope'), false);
    broken = false;
    assert.equal(await inbox.retry('evt_dead'), true);
    assert.equal(await inbox.runOnce(), 1);
    assert.equal((await inbox.get('evt_dead'))?.state, 'done');
    assert.deepEqual(await inbox.deadLetters(), []);
    assert.equal(runs.at(-1)!.attempt, 4);
  });

  test('a stored event whose type lost its handler goes to the dead letter, not into a loop', async () => {
    const store = memoryInbox();
    await store.accept({
      eventId: 'evt_orphan',
      type: 'gone.type',
      deliveryId: undefined,
      scheme: 'hookline',
      headers: {},
      body: Buffer.from('{}'),
      receivedAt: 0,
    });
    const inbox = createInbox({ store, events: {}, now: () => 1, logger: () => {} });
    assert.equal(await inbox.runOnce(), 1);
    assert.equal((await inbox.deadLetters())[0]?.error, 'no handler for event type gone.type');
  });

  test("a dead worker's claim is taken over by another worker after the lease; its late completion is fenced out", async () => {
    const store = memoryInbox();
    const clock = { ms: T * 1000 };
    const stuck = deferred();
    const started = deferred();
    const runsByWorker: string[] = [];
    const worker = (name: string, handle: () => Promise<void> | void) =>
      createInbox({
        store,
        now: () => clock.ms,
        leaseMs: 60_000,
        logger: () => {},
        events: {
          'order.shipped': {
            handle: async () => {
              runsByWorker.push(name);
              await handle();
            },
          },
        },
      });
    const a = worker('a', async () => {
      started.resolve();
      await stuck.promise; // a process that hangs or died mid-run
    });
    const b = worker('b', () => {});
    const receive = createWebhookHandler({ secrets: [secret], inbox: a, now: () => clock.ms, logger: () => {} });
    await receive(signed('evt_lease'));
    const aRun = a.runOnce();
    await within(started.promise, 5000, 'worker a to start');
    assert.equal(await b.runOnce(), 0, 'leased to a');
    clock.ms += 60_000;
    assert.equal(await b.runOnce(), 1, 'the lease ran out: b takes over');
    assert.equal((await store.get('evt_lease'))?.state, 'done');
    stuck.resolve();
    await within(aRun, 5000, 'worker a to finish');
    const entry = await store.get('evt_lease');
    assert.deepEqual([entry?.state, entry?.attempt], ['done', 2], "a's completion of attempt 1 changed nothing");
    assert.deepEqual(runsByWorker, ['a', 'b']);
  });

  test('retention: done events are pruned by the worker after retentionMs, not before; dead letters stay', async () => {
    const { receive, inbox, clock } = setup(
      (event) => {
        if (event.payload.data.order_id === 'fail') throw new Error('no');
      },
      { retentionMs: 1000, pruneIntervalMs: 1, retry: { maxAttempts: 1 } },
    );
    await receive(signed('evt_old'));
    await receive(signed('evt_failing', { order_id: 'fail' }));
    await inbox.runOnce();
    clock.ms += 1000;
    await inbox.runOnce();
    assert.equal((await inbox.get('evt_old'))?.state, 'done', 'exactly retentionMs old: kept');
    clock.ms += 1;
    await inbox.runOnce();
    assert.equal(await inbox.get('evt_old'), undefined, 'pruned by the worker pass');
    assert.equal((await inbox.get('evt_failing'))?.state, 'dead');
    assert.equal((await receive(signed('evt_old'))).status, 202, 'past retention the id is new again');
  });

  test('default retention is 30 days', async () => {
    const { receive, inbox, clock } = setup();
    await receive(signed('evt_month'));
    await inbox.runOnce();
    clock.ms += 30 * 24 * 3600_000;
    assert.equal(await inbox.prune(), 0);
    clock.ms += 1;
    assert.equal(await inbox.prune(), 1);
  });

  test('start(): an accepted event wakes the worker; stop() waits for the running handler', async () => {
    const ran = deferred<string>();
    const release = deferred();
    const { receive, inbox } = setup(
      async (event) => {
        ran.resolve(event.id);
        await release.promise;
      },
      { pollIntervalMs: 60_000 },
    );
    inbox.start();
    try {
      assert.equal((await receive(signed('evt_live'))).status, 202);
      assert.equal(
        await within(ran.promise, 5000, 'the worker to run the event'),
        'evt_live',
        'woken at once, not after the 60 s poll',
      );
      const stopped = inbox.stop();
      let done = false;
      void stopped.then(() => (done = true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, 'stop waits for the running handler');
      release.resolve();
      await within(stopped, 5000, 'stop');
      assert.equal((await inbox.get('evt_live'))?.state, 'done');
    } finally {
      release.resolve();
      await inbox.stop();
    }
  });

  test('the worker loop survives its storage going down and picks up once it is back', async () => {
    const ran = deferred<string>();
    const { inbox, store, logs } = setup((event) => ran.resolve(event.id), { pollIntervalMs: 5 });
    await store.accept({
      eventId: 'evt_outage',
      type: 'order.shipped',
      deliveryId: undefined,
      scheme: 'hookline',
      headers: {},
      body: Buffer.from('{"data":{}}'),
      receivedAt: 0,
    });
    store.setUnavailable(true);
    inbox.start();
    try {
      const sawOutage = (async () => {
        while (!logs.some((l) => l.msg === 'could not claim inbox events'))
          await new Promise((resolve) => setImmediate(resolve));
      })();
      await within(sawOutage, 5000, 'a logged claim failure');
      store.setUnavailable(false);
      assert.equal(await within(ran.promise, 5000, 'the event after the outage'), 'evt_outage');
    } finally {
      await inbox.stop();
    }
  });
});
