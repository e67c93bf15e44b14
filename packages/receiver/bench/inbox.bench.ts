// Events/s accepted durably into the SQLite inbox over loopback HTTP: 1 KB signed bodies, 50 concurrent senders; one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createInbox, createWebhookHandler, nodeHttpWebhook, signWebhook, sqliteInbox } from '../src/index.ts';

const SENDERS = 50;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const dir = mkdtempSync(join(tmpdir(), 'hookline-inbox-bench-'));
const db = new Database(join(dir, 'inbox.db'));
const inbox = createInbox({
  store: sqliteInbox(db),
  events: { 'order.shipped': { schema: { type: 'object', required: ['data'] }, handle: () => {} } },
  logger: () => {},
});
const receive = createWebhookHandler({ secrets: [secret], inbox, logger: () => {} });
const server = createServer(nodeHttpWebhook(receive));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

const envelope = (id: string, note: string) => JSON.stringify({ event_id: id, type: 'order.shipped', data: { note } });
// Signed up front: the figure is the receiver's, not the sender's HMAC.
const requests = Array.from({ length: EVENTS + SENDERS * 4 }, (_, i) => {
  const id = `evt_${String(i).padStart(8, '0')}`;
  const body = envelope(id, 'x'.repeat(1024 - envelope(id, '').length)); // exactly 1024 bytes
  return {
    body,
    headers: {
      ...signWebhook({ secrets: secret, id, body }),
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  };
});
const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
const send = (i: number) =>
  new Promise<number>((resolve, reject) => {
    const { body, headers } = requests[i]!;
    const req = request({ host: '127.0.0.1', port, method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });

async function run(from: number, count: number): Promise<number> {
  let next = from;
  let refused = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < from + count) if ((await send(next++)) !== 202) refused++;
    }),
  );
  return refused;
}

await run(EVENTS, SENDERS * 4); // warm-up: connections, JIT, the table's first pages
const start = process.hrtime.bigint();
const refused = await run(0, EVENTS);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const stored = (db.prepare('SELECT count(*) AS n FROM hookline_receiver_inbox').get() as { n: number }).n;
agent.destroy();
server.close();
db.close();
rmSync(dir, { recursive: true, force: true });
if (refused > 0 || stored !== EVENTS + SENDERS * 4)
  throw new Error(`bench invalid: ${refused} refused, ${stored} stored`);
console.log(
  JSON.stringify({
    bench: 'inbox-accept',
    store: 'sqlite (WAL, synchronous=FULL)',
    payload_bytes: 1024,
    senders: SENDERS,
    events: EVENTS,
    seconds: Number(seconds.toFixed(3)),
    events_per_sec: Math.round(EVENTS / seconds),
    node: process.version,
  }),
);
