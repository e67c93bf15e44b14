// `hookline simulate --scenario`: a scenario's pause and reactivate are transitions of the endpoint, listed with
// health's own (docs/scenarios/pause-and-replay.json).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { json, runMain } from './cli-harness.ts';

const SCENARIO = fileURLToPath(new URL('../../../docs/scenarios/pause-and-replay.json', import.meta.url));

test('simulate --scenario lists the pause and the reactivation among the transitions', async () => {
  const r = await runMain(['simulate', '--scenario', SCENARIO, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const endpoint = json(r).transitions.filter((t: { scope: string }) => t.scope === 'endpoint');
  const manual = endpoint.map((t: { at_ms: number; from: string; to: string; reason?: string }) => [
    t.at_ms,
    t.to,
    t.reason,
  ]);
  assert.deepEqual(
    manual.filter(([, , reason]: [number, string, string]) => reason === 'manual' || reason === 'reactivated'),
    [
      [20 * 60_000, 'paused', 'manual'],
      [60 * 60_000, 'active', 'reactivated'],
    ],
  );
  const text = await runMain(['simulate', '--scenario', SCENARIO]);
  assert.match(text.stdout, /20m\s+health\s+endpoint\s+\w+\s+paused\s+manual/);
  assert.match(text.stdout, /1h\s+health\s+endpoint\s+paused\s+active\s+reactivated/);
});
