// The benchmark receiver, run as its own process so it never shares the measured process's event loop.
// Mode `ok` answers 200 at once; `hang` never answers (the dead endpoint). Prints {"port":n} on stdout when listening.
// Control: GET /__stats → {count}; GET /__arrivals → {id: arrival ms} (by X-Webhook-Id); POST /__reset clears both.
// Ordering (POST /__reset with X-Record-Order: 1): each body's data {key, seq} is checked against the highest seq of its
// key seen so far (a lower one is a violation), and data.fail answers 500; GET /__order → {keys, arrivals, violations}.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const mode = process.argv[2] === 'hang' ? 'hang' : 'ok';
let count = 0;
let arrivals: Record<string, number> = {};
let recordArrivals = false;
let recordOrder = false;
let order = new Map<string, number>();
let orderArrivals = 0;
let violations = 0;
const hanging = new Set<ServerResponse>();
const OK = Buffer.from('ok');

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/__')) {
    req.resume();
    req.on('end', () => {
      if (url === '/__reset') {
        count = 0;
        arrivals = {};
        recordArrivals = req.headers['x-record-arrivals'] === '1';
        recordOrder = req.headers['x-record-order'] === '1';
        order = new Map();
        orderArrivals = 0;
        violations = 0;
        for (const h of hanging) h.destroy();
        hanging.clear();
        res.end('{}');
      } else if (url === '/__stats') res.end(JSON.stringify({ count, hanging: hanging.size }));
      else if (url === '/__arrivals') res.end(JSON.stringify(arrivals));
      else if (url === '/__order') res.end(JSON.stringify({ keys: order.size, arrivals: orderArrivals, violations }));
      else {
        res.statusCode = 404;
        res.end();
      }
    });
    return;
  }
  // Arrival is when the request's headers are parsed: that is when the attempt reached the receiver.
  if (recordArrivals) {
    const id = req.headers['x-webhook-id'];
    if (typeof id === 'string' && arrivals[id] === undefined) arrivals[id] = performance.timeOrigin + performance.now();
  }
  if (recordOrder) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      count++;
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { key?: string; seq: number; fail?: boolean };
      };
      if (data.fail) {
        res.writeHead(500, { 'content-type': 'text/plain', 'content-length': '2' }).end(OK);
        return;
      }
      if (data.key !== undefined) {
        orderArrivals++;
        const top = order.get(data.key) ?? -1;
        if (data.seq < top) violations++;
        else order.set(data.key, data.seq);
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end(OK);
    });
    return;
  }
  req.resume();
  req.on('end', () => {
    count++;
    if (mode === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end(OK);
  });
});
server.keepAliveTimeout = 30_000;
server.headersTimeout = 35_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
// The parent's death ends us: it holds our stdin open.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
