// Test fixtures for engine tests: a temp SQLite file, a scripted receiver on 127.0.0.1, an engine on a virtual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../src/clock.ts';
import { createHookline, type Hookline, type HooklineOptions } from '../src/hookline.ts';
import { seededRandom } from '../src/policy/random.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { openSqliteThreadStore } from '../src/store/sqlite/sqlite-thread.ts';
import type { Store } from '../src/store/store.ts';

export interface Received {
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

/** A receiver whose answer to the n-th request (1-based) comes from `respond`; records every request. */
export async function startReceiver(respond: (n: number, req: Received) => number | 'hang' | { status: number; headers?: Record<string, string> } = () => 200, clock?: { now(): number }) {
  const received: Received[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks), at: clock?.now() ?? Date.now() };
      received.push(r);
      const answer = respond(received.length, r);
      if (answer === 'hang') {
        hanging.add(res);
        res.once('close', () => hanging.delete(res));
        return;
      }
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(status >= 200 && status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Requests answered with 'hang' whose connection is still open (the sender has not given up on them). */
    get hanging() {
      return hanging.size;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A fresh SQLite file; `thread` puts its connection on a store thread, as the server does. */
export async function tempStore(options: { thread?: boolean } = {}): Promise<{ store: Store; path: string; cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-test-'));
  const path = join(dir, 'hookline.db');
  const store = options.thread ? await openSqliteThreadStore(path) : await openSqliteStore(path);
  return {
    store,
    path,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function testEngine(options: Partial<HooklineOptions> & { store?: Store } = {}) {
  const clock = (options.clock as VirtualClock | undefined) ?? new VirtualClock(Date.UTC(2026, 0, 5, 12));
  const temp = options.store ? null : await tempStore();
  const store = options.store ?? temp!.store;
  const engine: Hookline = createHookline({
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { random: seededRandom(7), logAttempts: false, ...options.dispatcher },
    ...options,
    store,
    clock,
  });
  const tenantId = 'ten_TEST';
  await store.createTenant({ id: tenantId, name: 'Test', ownerEmails: ['owner@example.test'], operationsEndpointId: null, notifyEmail: true, createdAt: clock.now(), updatedAt: clock.now() });
  return {
    engine,
    clock,
    store,
    tenantId,
    async close() {
      await engine.stop();
      if (temp) await temp.cleanup();
    },
  };
}
