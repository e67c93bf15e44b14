// Before each measured child the machine is left as the run found it: every child a scenario started is gone (each
// stops its own; killAll is the backstop), and what they wrote is on disk before the next one starts. Why: the disk is
// mounted with `discard`, so deleting a scenario's database files may queue TRIMs that the next journal commit carries,
// and ingest (fsync-bound) once measured a third lower in a full run than alone. That cause is a hypothesis, not shown
// (docs/performance.md); `sync` waits for whatever the earlier children left to flush.
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export async function settle(): Promise<number> {
  const t0 = Date.now();
  spawnSync('sync', { stdio: 'ignore' });
  // A moment for the kernel's own writeback threads and the children's exits to finish.
  await sleep(1000);
  return Date.now() - t0;
}
