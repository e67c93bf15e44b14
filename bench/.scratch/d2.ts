import { startReceiver, killAll } from '../lib/children.ts';
import { acceptBacklog, engineFixture, terminalCounter, TENANT } from '../lib/fixture.ts';
import { jsonLogger } from '@hookline/core';
const n = Number(process.argv[2] ?? 2000);
const r = await startReceiver();
const f = await engineFixture({ logger: jsonLogger('warn') });
await f.engine.createEndpoint(TENANT, { url: r.url() });
await acceptBacklog(f.engine, n);
const s: any = f.store;
const log: any[] = [];
const t0 = performance.now();
for (const m of ['claimDue', 'recordAttempts', 'nextDueAt', 'releaseExpiredLeases']) {
  const orig = s[m].bind(s);
  s[m] = async (...a: any[]) => { const t = performance.now(); const out = await orig(...a); log.push([m, (t - t0).toFixed(1), (performance.now() - t).toFixed(1), Array.isArray(out) ? out.length : out, m === 'recordAttempts' ? a[0].length : '']); return out; };
}
const snd: any = f.engine.sender; const os = snd.send;
snd.send = async (...a: any[]) => { const t = performance.now(); const o = await os(...a); log.push(['send', (t - t0).toFixed(1), (performance.now() - t).toFixed(1)]); return o; };
const c = terminalCounter(f.engine);
f.engine.start();
await c.until(n, 15000).catch(e => console.log(e.message));
console.log('per_s', n / ((performance.now() - t0) / 1000));
for (const l of log.slice(0, 120)) console.log(l.join(' '));
await f.close(); await r.close(); killAll();
