// Each adapter behind a real server on 127.0.0.1: raw bytes verify, bounds hold, answers match.

import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { expressWebhook } from '../src/adapters/express.ts';
import { fastifyWebhook } from '../src/adapters/fastify.ts';
import { honoWebhook } from '../src/adapters/hono.ts';
import { nodeHttpWebhook } from '../src/adapters/node-http.ts';
import type { BodyLimits } from '../src/adapters/read-body.ts';
import { createWebhookHandler } from '../src/handler.ts';
import type { LogLine } from '../src/log-line.ts';
import { signWebhook } from '../src/sign.ts';
import { memoryStore } from '../src/stores/memory-store.ts';
import type { WebhookEvent } from '../src/webhook-event.ts';

const secret = { kid: 'k1', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
const limits: BodyLimits = { maxBodyBytes: 4096, bodyTimeoutMs: 300 };
// Odd whitespace, key order and escapes: any re-serialisation would break the signature.
const oddBody = (id: string) =>
  `{\n  "type" :"order.shipped",\t"data":{ "order_id":"ord_1" , "note":"caf\\u00e9 ✓", "qty": 1.0 },\r\n"event_id":"${id}"   }  `;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const ANSWER_DEADLINE_MS = 10_000;

/** POSTs with node:http so a refused upload still yields its answer; `partial` stops short of the declared length. */
function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  partial = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    req.on('error', (error) => reject(error));
    // A deadline on the exchange: an adapter that never answers fails the test instead of hanging it.
    req.setTimeout(ANSWER_DEADLINE_MS, () =>
      req.destroy(new Error(`no answer from ${path} within ${ANSWER_DEADLINE_MS} ms`)),
    );
    if (partial) req.write(body.subarray(0, 10));
    else if (body.length > 64 * 1024)
      req.write(body.subarray(0, 1024)); // declared too large: the server answers before the rest
    else req.end(body);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

interface Harness {
  port: number;
  path: string;
  stop(): Promise<void>;
}

function makeHandler() {
  const runs: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    secrets: [secret],
    store: memoryStore(),
    logger: () => {},
    events: {
      'order.shipped': { schema: { type: 'object', required: ['data'] }, handle: (event) => void runs.push(event) },
    },
  });
  return { handler, runs };
}

type Start = (handler: ReturnType<typeof makeHandler>['handler']) => Promise<Harness>;

const adapters: Record<string, Start> = {
  'node:http': async (handler) => {
    const server = createServer(nodeHttpWebhook(handler, limits));
    return { port: await listen(server), path: '/', stop: () => close(server) };
  },
  express: async (handler) => {
    const app = express();
    app.post('/hooks', expressWebhook(handler, limits));
    app.use(express.json());
    app.post('/json', (req, res) => void res.json(req.body));
    const server = createServer(app);
    return { port: await listen(server), path: '/hooks', stop: () => close(server) };
  },
  fastify: async (handler) => {
    const app = Fastify();
    await app.register(fastifyWebhook(handler, { ...limits, path: '/hooks' }));
    app.post('/json', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, path: '/hooks', stop: () => app.close() };
  },
  hono: async (handler) => {
    const app = new Hono();
    app.post('/hooks', honoWebhook(handler, limits));
    let server!: ReturnType<typeof serve>;
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
    });
    return { port, path: '/hooks', stop: () => close(server as unknown as Server) };
  },
};

for (const [name, start] of Object.entries(adapters)) {
  describe(`${name} adapter`, () => {
    let harness: Harness;
    let handler: ReturnType<typeof makeHandler>['handler'];
    let runs: WebhookEvent[];
    before(async () => {
      ({ handler, runs } = makeHandler());
      harness = await start(handler);
    });
    after(async () => {
      await handler.drain();
      await harness.stop();
    });

    test('raw bytes with odd whitespace and key order verify; a duplicate gets the same answer, one run', async () => {
      const body = Buffer.from(oddBody(`evt_${name}`));
      const headers = signWebhook({ secrets: secret, id: `evt_${name}`, deliveryId: 'dlv_1', body });
      const first = await post(harness.port, harness.path, headers, body);
      assert.equal(first.status, 202, first.body);
      assert.match(String(first.headers['content-type']), /^application\/json/);
      const again = await post(harness.port, harness.path, headers, body);
      await handler.drain();
      assert.deepEqual([again.status, again.body], [first.status, first.body]);
      assert.equal(runs.length, 1);
      assert.equal(runs[0]!.payload.data.note, 'café ✓');
      assert.deepEqual(Buffer.from(runs[0]!.rawBody), body);
    });

    test('standard scheme headers work too', async () => {
      const body = Buffer.from(oddBody(`msg_${name}`));
      const headers = signWebhook({ scheme: 'standard', secrets: secret, id: `msg_${name}`, body });
      assert.equal((await post(harness.port, harness.path, headers, body)).status, 202);
    });

    test('a doctor check (X-Webhook-Doctor: 1, doctor_ id) is answered 202 as a real event and never run', async () => {
      const id = `doctor_evt_${name.replace(':', '_')}`;
      const body = Buffer.from(oddBody(id));
      const headers = { ...signWebhook({ secrets: secret, id, body }), 'X-Webhook-Doctor': '1' };
      const before = runs.length;
      const reply = await post(harness.port, harness.path, headers, body);
      assert.deepEqual([reply.status, JSON.parse(reply.body)], [202, { ok: true, event_id: id }]);
      await handler.drain();
      assert.equal(runs.length, before, 'the handler ran a doctor check');
    });

    test('a bad signature is 401 with a plain reason', async () => {
      const body = Buffer.from(oddBody('evt_bad'));
      const headers = signWebhook({ secrets: secret, id: 'evt_bad', body: body.toString().replace('ord_1', 'ord_2') });
      const reply = await post(harness.port, harness.path, headers, body);
      assert.equal(reply.status, 401);
      assert.equal(JSON.parse(reply.body).message, 'signature mismatch');
    });

    test('a body over the limit is 413 (declared or streamed)', async () => {
      const big = Buffer.alloc(limits.maxBodyBytes! + 1, 0x20);
      const reply = await post(harness.port, harness.path, {}, big);
      assert.equal(reply.status, 413);
      assert.equal(JSON.parse(reply.body).code, 'payload_too_large');
      const huge = Buffer.alloc(128 * 1024, 0x20);
      assert.equal((await post(harness.port, harness.path, {}, huge)).status, 413);
    });

    test('a body that never finishes is 408 after bodyTimeoutMs', async () => {
      const reply = await post(harness.port, harness.path, {}, Buffer.alloc(100, 0x20), true);
      assert.equal(reply.status, 408);
      assert.equal(JSON.parse(reply.body).message, 'body read timed out');
    });
  });
}

describe('framework integration details', () => {
  test('express: express.raw() in front works; a JSON parser in front fails loudly (500), never verifies re-serialised JSON', async () => {
    const { handler } = makeHandler();
    const app = express();
    app.post('/raw', express.raw({ type: '*/*' }), expressWebhook(handler));
    app.post('/parsed', express.json(), expressWebhook(handler));
    app.use(
      (_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
        void res.status(500).json({ code: 'internal_error' }),
    );
    const server = createServer(app);
    const port = await listen(server);
    try {
      const body = Buffer.from(oddBody('evt_raw'));
      assert.equal((await post(port, '/raw', signWebhook({ secrets: secret, id: 'evt_raw', body }), body)).status, 202);
      const parsed = Buffer.from(oddBody('evt_parsed'));
      assert.equal(
        (await post(port, '/parsed', signWebhook({ secrets: secret, id: 'evt_parsed', body: parsed }), parsed)).status,
        500,
      );
      await handler.drain();
    } finally {
      await close(server);
    }
  });

  test('express and fastify: routes outside the webhook keep their JSON parsing', async () => {
    for (const start of [adapters.express!, adapters.fastify!]) {
      const { handler } = makeHandler();
      const harness = await start(handler);
      try {
        const reply = await post(harness.port, '/json', {}, Buffer.from('{"a": 1}'));
        assert.deepEqual(JSON.parse(reply.body), { a: 1 });
      } finally {
        await harness.stop();
      }
    }
  });

  test('refusals before the handler (413) are logged as one line with the ids', async () => {
    const lines: LogLine[] = [];
    const handler = createWebhookHandler({
      secrets: [secret],
      store: memoryStore(),
      logger: (l) => lines.push(l),
      events: {},
    });
    const server = createServer(nodeHttpWebhook(handler, { maxBodyBytes: 10 }));
    const port = await listen(server);
    try {
      const reply = await post(
        port,
        '/',
        { 'x-webhook-id': 'evt_big', 'x-webhook-delivery': 'dlv_big' },
        Buffer.alloc(11, 0x20),
      );
      assert.equal(reply.status, 413);
      assert.equal(lines.length, 1);
      assert.deepEqual(
        [lines[0]!.event_id, lines[0]!.delivery_id, lines[0]!.code, lines[0]!.reason],
        ['evt_big', 'dlv_big', 'payload_too_large', 'payload too large'],
      );
    } finally {
      await close(server);
    }
  });

  test('node:http: anything but POST is 405', async () => {
    const { handler } = makeHandler();
    const server = createServer(nodeHttpWebhook(handler));
    const port = await listen(server);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'GET' }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.setTimeout(ANSWER_DEADLINE_MS, () => req.destroy(new Error(`no answer within ${ANSWER_DEADLINE_MS} ms`)));
        req.on('error', reject).end();
      });
      assert.equal(status, 405);
    } finally {
      await close(server);
    }
  });
});
