import { startReceiver, killAll } from '../lib/children.ts';
import { createSender } from '@hookline/core';
import { envelope } from '../lib/fixture.ts';
const r = await startReceiver();
const s = createSender({ allowHttp: true, allowPrivateTargets: true });
const body = envelope(1);
for (const round of [1,2,3]) {
let next = 0; const N = 4000; const durs: number[] = [];
const t0 = performance.now();
await Promise.all(Array.from({ length: 20 }, async () => { while (next++ < N) { const res = await s.send({ url: r.url(), headers: { 'X-Webhook-Id': 'x' }, body, timeoutMs: 5000 }); durs.push(res.durationMs); if (res.outcome !== 'success') console.log(res); } }));
console.log('per_s', N / ((performance.now() - t0) / 1000), 'avg dur', durs.reduce((a, b) => a + b) / durs.length);
}
await s.close(); await r.close(); killAll();
