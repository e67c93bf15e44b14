import { acceptBacklog, engineFixture, terminalCounter, TENANT } from '../lib/fixture.ts';
const n = Number(process.argv[2] ?? 5000);
const sender = { async send() { await new Promise(r => setImmediate(r)); return { outcome: 'success' as const, status: 200, responseHeaders: { 'content-length': '2' }, bodyExcerpt: 'ok', errorClass: null, errorMessage: null, startedAt: Date.now(), durationMs: 0 }; } };
const f = await engineFixture({ sender });
await f.engine.createEndpoint(TENANT, { url: 'http://127.0.0.1:9/hook' });
await acceptBacklog(f.engine, n);
const s: any = f.store; const counts: any = {};
for (const m of ['claimDue', 'recordAttempts', 'nextDueAt']) { const o = s[m].bind(s); s[m] = (...a: any[]) => { counts[m] = (counts[m] ?? 0) + 1; return o(...a); }; }
const c = terminalCounter(f.engine);
const t0 = performance.now();
f.engine.start();
await c.until(n, 60000);
const sec = (performance.now() - t0) / 1000;
console.log('per_s', Math.round(n / sec), counts, 'cpu', process.cpuUsage());
await f.close();
