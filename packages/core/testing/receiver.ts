// The one general-purpose loopback webhook receiver for every package's tests: it records each request (method, url,
// headers, raw body, arrival time) and answers what `respond` says. Hostile receivers (never answers, trickles, cuts
// the connection) are scenarios and stay bespoke beside their tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  /** The request target, e.g. `/hook`. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Arrival time on the receiver's clock (the injected one, else Date.now()). */
  at: number;
}

/** A status, `'hang'` (never answer; the connection stays open until the sender gives up or close()), or a full answer. */
export type ReceiverAnswer = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

/** Answers the n-th request (1-based); may be async (e.g. to add latency so attempts stay in flight). */
export type Respond = (n: number, req: Received) => ReceiverAnswer | Promise<ReceiverAnswer>;

export interface TestReceiver {
  /** `origin` + `path` (default `/hook`). */
  url: string;
  /** `http://127.0.0.1:<port>`, for receivers addressed under several paths. */
  origin: string;
  received: Received[];
  /** Requests answered with 'hang' whose connection is still open (the sender has not given up on them). */
  readonly hanging: number;
  /** Resolves once at least `n` requests have been answered (or left hanging); rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(
  respond: Respond = () => 200,
  options: { clock?: { now(): number }; path?: string } = {},
): Promise<TestReceiver> {
  const received: Received[] = [];
  let handled = 0;
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const settled = () => {
    handled++;
    for (const w of waiters) w();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: options.clock?.now() ?? Date.now(),
      };
      received.push(r);
      let answer: ReceiverAnswer;
      try {
        answer = await respond(received.length, r);
      } catch (e) {
        // A throwing respond is a bug in the test: answer 500 so the sender is not left waiting, and say why.
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
        settled();
        return;
      }
      if (answer === 'hang') {
        hanging.add(res);
        res.once('close', () => hanging.delete(res));
        settled();
        return;
      }
      const { status, headers, body } =
        typeof answer === 'number' ? { status: answer, headers: {}, body: undefined } : answer;
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(body ?? (status >= 200 && status < 300 ? 'ok' : 'nope'));
      settled();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin + (options.path ?? '/hook'),
    origin,
    received,
    get hanging() {
      return hanging.size;
    },
    async waitFor(n, timeoutMs = 10_000) {
      if (handled >= n) return;
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        const check = () => {
          if (handled < n) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out after ${timeoutMs} ms: the receiver got ${received.length} of ${n} requests`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
