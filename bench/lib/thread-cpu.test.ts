import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { threadCpu } from './thread-cpu.ts';

// A thread that reports its id, then does a fixed amount of work (tens of ms of CPU, however loaded the machine).
const BURNER = `
const { parentPort } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
parentPort.postMessage({ tid: Number(readlinkSync('/proc/thread-self').split('/').pop()) });
parentPort.on('message', () => { let x = 0; for (let i = 0; i < 3e7; i++) x += Math.sqrt(i); parentPort.postMessage(x > 0 ? 'done' : 'odd'); });
`;

test('CPU time is split by thread: a busy named thread is charged to it, not to the event loop', {
  skip: !existsSync('/proc/thread-self') && 'not Linux',
}, async () => {
  const w = new Worker(BURNER, { eval: true });
  try {
    const tid = await new Promise<number>((resolve) => w.once('message', (m) => resolve(m.tid)));
    const cpu = threadCpu();
    w.postMessage('go');
    await new Promise((resolve) => w.once('message', resolve));
    const split = cpu.done(1000, { store: tid });
    assert.ok(split);
    // The work is charged to the thread that did it; the event loop only waited.
    assert.ok(split.cpu_us_by_thread.store_thread! >= 10, JSON.stringify(split));
    assert.ok(split.cpu_us_by_thread.event_loop < split.cpu_us_by_thread.store_thread! / 4, JSON.stringify(split));
    assert.ok(split.cpu_us_per_delivery >= split.cpu_us_by_thread.store_thread!, JSON.stringify(split));
    assert.equal(split.cpu_us_by_thread.checkpointer, null);
  } finally {
    await w.terminate();
  }
});
