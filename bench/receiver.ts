// The benchmark receiver, run as its own process so it never shares the measured process's event loop.
// Mode `ok` answers 200 at once; `hang` never answers (the dead endpoint). Prints {"port":n} on stdout when listening.
// Control: GET /__stats → {count}; GET /__arrivals → {id: arrival ms} (by X-Webhook-Id); POST /__reset clears both.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const mode = process.argv[2] === 'hang' ? 'hang' : 'ok';
let count = 0;
let arrivals: Record<string, number> = {};
let recordArrivals = false;
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
        for (const h of hanging) h.destroy();
        hanging.clear();
        res.end('{}');
      } else if (url === '/__stats') res.end(JSON.stringify({ count, hanging: hanging.size }));
      else if (url === '/__arrivals') res.end(JSON.stringify(arrivals));
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
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n');
});
// The parent's death ends us: it holds our stdin open.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
