import { startReceiver, measureInChild, killAll } from '../lib/children.ts';
const r = await startReceiver();
console.log('peer', await measureInChild('peer.ts', 'measure', { url: r.url(), events: Number(process.argv[2] ?? 5000) }, { timeoutMs: 200000 }));
await r.close(); killAll();
