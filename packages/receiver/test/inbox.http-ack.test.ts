// The inbox's promise at the HTTP level (docs/rules.md#receiver-store-first): a real node:http server with the toolkit's
// handler answers 2xx only once the event's write has completed, and never 2xx when the write fails. The store's
// write is held open by the test, so an answer sent before awaiting it would reach the client while it is held.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
// The shared deadline helper (no imports of its own; the receiver package does not depend on the engine).
import { within } from '../../core/testing/deadline.ts';
import { nodeHttpWebhook } from '../src/adapters/node-http.ts';
import { StorageUnavailable } from '../src/errors.ts';
import { createWebhookHandler } from '../src/handler.ts';
import { createInbox } from '../src/inbox/inbox.ts';
import type { AcceptResult, InboxEvent, InboxStore } from '../src/inbox/inbox-store.ts';
import { memoryInbox } from '../src/inbox/memory-inbox.ts';
import { signWebhook } from '../src/sign.ts';

const secret = { kid: 'k1', secret: 'inbox http test secret' };

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** A memory inbox whose next write waits for `release`: `started` resolves once the handler has begun it. */
function heldStore() {
  const real = memoryInbox();
  const log: string[] = [];
  const started = deferred();
  const release = deferred<'complete' | 'fail'>();
  const store: InboxStore = {
    ...real,
    async accept(event: InboxEvent): Promise<AcceptResult> {
      log.push('write started');
      started.resolve();
      if ((await release.promise) === 'fail') {
        log.push('write failed');
        throw new StorageUnavailable(new Error('disk full'));
      }
      const result = await real.accept(event);
      log.push('write done');
      return result;
    },
  };
  return { store, real, log, started, release };
}

async function serve(store: InboxStore, t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const inbox = createInbox({ store, events: { 'order.shipped': { handle: () => {} } }, logger: () => {} });
  const handler = createWebhookHandler({ secrets: [secret], inbox, logger: () => {} });
  const server: Server = createServer(nodeHttpWebhook(handler));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

function post(url: string, id: string): Promise<Response> {
  const body = JSON.stringify({ event_id: id, type: 'order.shipped', data: { order_id: 'ord_1' } });
  const headers = signWebhook({ secrets: secret, id, timestamp: Math.floor(Date.now() / 1000), body });
  return fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
}

/**
 * Lets the server answer whatever it would answer now: a second request on the same server, answered without the
 * store (405), sent after the held write began. A response written before the write completed was written before
 * this one, so it has reached the client by the time this one does.
 */
async function roundTrip(url: string): Promise<void> {
  const probe = await within('the probe request', 10_000, fetch(url, { method: 'GET' }));
  assert.equal(probe.status, 405);
}

test('the 202 reaches the client only after the write completed, and the event is stored when it does', async (t) => {
  const { store, real, log, started, release } = heldStore();
  const url = await serve(store, t);
  let storedAtAnswer: unknown = 'not answered';
  const answered = post(url, 'evt_held').then(async (res) => {
    log.push(`answer ${res.status}`);
    storedAtAnswer = (await real.get('evt_held'))?.state;
    return res;
  });
  await within('the write to begin', 10_000, started.promise);
  await roundTrip(url);
  assert.deepEqual(log, ['write started'], 'no answer while the write is held');
  release.resolve('complete');
  const res = await within('the answer', 10_000, answered);
  assert.equal(res.status, 202);
  assert.deepEqual(log, ['write started', 'write done', 'answer 202']);
  assert.equal(storedAtAnswer, 'pending', 'the acknowledged event is in the store');
});

test('a write that fails is answered 503 storage_unavailable, never 2xx, and nothing is stored', async (t) => {
  const { store, real, log, started, release } = heldStore();
  const url = await serve(store, t);
  const answered = post(url, 'evt_lost').then((res) => {
    log.push(`answer ${res.status}`);
    return res;
  });
  await within('the write to begin', 10_000, started.promise);
  await roundTrip(url);
  assert.deepEqual(log, ['write started'], 'no answer while the write is held');
  release.resolve('fail');
  const res = await within('the answer', 10_000, answered);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('retry-after'), '10');
  assert.equal(((await res.json()) as { code: string }).code, 'storage_unavailable');
  assert.deepEqual(log, ['write started', 'write failed', 'answer 503']);
  assert.equal(await real.get('evt_lost'), undefined);
});
