import { startReceiver, measureInChild, killAll } from '/work/main/bench/lib/children.ts';
const r = await startReceiver();
const n = Number(process.argv[2] ?? 5000);
console.log('limit', await measureInChild('limit.ts', 'measure', { url: r.url(), events: n }, { timeoutMs: 60000 }));
console.log('limit c50', await measureInChild('limit.ts', 'measure', { url: r.url(), events: n, concurrency: 50 }, { timeoutMs: 60000 }));
console.log('drain', await measureInChild('drain.ts', 'measure', { url: r.url(), events: n }, { timeoutMs: 120000 }));
await r.close(); killAll();
