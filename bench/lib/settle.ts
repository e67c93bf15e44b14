// Before each measured child the machine is left as the run found it: every child a scenario started is gone (each stops its
// own; killAll is the backstop), and what they wrote is on disk before the next one starts. The disk is mounted with
// `discard` here: deleting a scenario's database files queues TRIMs that the next journal commit carries, so a
// measurement run after a file-heavy one (drain, peer's Redis AOF, backlog's million rows) paid for them in its own
// fsyncs — ingest, fsync-bound, measured a third lower in a full run than alone. `sync` waits for that flush.
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export async function settle(): Promise<number> {
  const t0 = Date.now();
  spawnSync('sync', { stdio: 'ignore' });
  // A moment for the kernel's own writeback threads and the children's exits to finish.
  await sleep(1000);
  return Date.now() - t0;
}
