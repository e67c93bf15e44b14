import { startReceiver, killAll } from '../lib/children.ts';
import { Pool } from 'undici';
import { envelope } from '../lib/fixture.ts';
const r = await startReceiver();
const body = envelope(1);
const u = new URL(r.url());
async function run(name: string, poolOpts: any, reqOpts: (c: AbortController) => any) {
  const pool = new Pool(u.origin, { connections: 20, pipelining: 1, ...poolOpts });
  let next = 0; const N = 4000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 20 }, async () => { while (next++ < N) {
    const c = new AbortController(); const t = setTimeout(() => c.abort(), 5000);
    const res = await pool.request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body, ...reqOpts(c) });
    await res.body.text(); clearTimeout(t);
  } }));
  console.log(name, 'per_s', Math.round(N / ((performance.now() - t0) / 1000)));
  await pool.close();
}
await run('plain', {}, () => ({}));
await run('signal', {}, (c) => ({ signal: c.signal }));
await run('hwm', {}, () => ({ highWaterMark: 16384 }));
await run('timeouts', {}, () => ({ headersTimeout: 5000, bodyTimeout: 5000 }));
await run('lookup', { connect: { lookup: (h: any, o: any, cb: any) => require('dns').lookup(h, o, cb), timeout: 10000 } }, () => ({}));
await run('keepalive4s', { keepAliveTimeout: 4000 }, () => ({}));
await r.close(); killAll();
