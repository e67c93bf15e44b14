// Store conformance, processes: the settings rows running processes publish, their heartbeat and expiry.
import assert from 'node:assert/strict';
import type { ProcessRecord } from '../../src/store/store.ts';
import { MIN, T0, type WithStore } from './fixtures.ts';

const row = (
  processId: string,
  at: number,
  settings: Record<string, string> = { allowHttp: 'false' },
): ProcessRecord => ({
  processId,
  role: 'worker',
  epoch: 0,
  settings,
  startedAt: at,
  seenAt: at,
});

export function processesConformance(withStore: WithStore): void {
  withStore('processes: publish, list oldest first, heartbeat, expire, remove', async (store) => {
    await store.processes.putProcess(row('prc_b', T0 + 1, { allowHttp: 'true', masterKey: 'kcv:ab' }));
    await store.processes.putProcess(row('prc_a', T0));
    assert.deepEqual(await store.processes.liveProcesses(T0), [
      row('prc_a', T0),
      row('prc_b', T0 + 1, { allowHttp: 'true', masterKey: 'kcv:ab' }),
    ]);
    // A heartbeat moves seen_at only; an unknown process changes nothing and says so.
    assert.equal(await store.processes.touchProcess('prc_b', T0 + 2 * MIN), true);
    assert.equal(await store.processes.touchProcess('prc_x', T0 + 2 * MIN), false);
    // prc_a was not seen since T0: listing from T0 + 1 min forgets it for good.
    const live = await store.processes.liveProcesses(T0 + MIN);
    assert.deepEqual(
      live.map((p) => [p.processId, p.startedAt, p.seenAt]),
      [['prc_b', T0 + 1, T0 + 2 * MIN]],
    );
    assert.equal(await store.processes.touchProcess('prc_a', T0 + 2 * MIN), false, 'the expired row was purged');
    // Publishing again replaces the process's own row.
    await store.processes.putProcess({ ...row('prc_b', T0 + 3 * MIN), epoch: 2 });
    assert.deepEqual(await store.processes.liveProcesses(T0), [{ ...row('prc_b', T0 + 3 * MIN), epoch: 2 }]);
    await store.processes.removeProcess('prc_b');
    assert.deepEqual(await store.processes.liveProcesses(T0), []);
  });

  withStore('processes: a sole owner removes every other row, keeping its own', async (store) => {
    for (const id of ['prc_1', 'prc_2', 'prc_3']) await store.processes.putProcess(row(id, T0));
    await store.processes.removeProcess('prc_2', { others: true });
    assert.deepEqual(
      (await store.processes.liveProcesses(T0)).map((p) => p.processId),
      ['prc_2'],
    );
  });
}
