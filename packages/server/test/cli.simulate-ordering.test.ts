// `hookline simulate --scenario` with ordering keys (docs/rules.md#ordered-delivery), through the real executable.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { json, runCli } from './cli-harness.ts';

type Run = {
  deliveries: Array<{
    event_id: string;
    status: string;
    ordering_key?: string;
    ordering_seq?: number;
    delivered_at_ms: number | null;
  }>;
  order?: Array<{ ordering_key: string; delivered: string[]; in_order: boolean }>;
};

it("docs/scenarios/ordered-keys.json: each key's updates arrive in accept order behind its failing first one; --json and the summary show the order", async () => {
  const file = fileURLToPath(new URL('../../../docs/scenarios/ordered-keys.json', import.meta.url));
  const run = await runCli(['simulate', '--scenario', file, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const r = json<Run>(run);
  assert.deepEqual(
    r.deliveries.filter((d) => d.status !== 'succeeded'),
    [],
  );
  assert.deepEqual(r.order, [
    { ordering_key: 'pay_a', delivered: ['sim-00001', 'sim-00004', 'sim-00007', 'sim-00010'], in_order: true },
    { ordering_key: 'pay_b', delivered: ['sim-00002', 'sim-00005', 'sim-00008', 'sim-00011'], in_order: true },
    { ordering_key: 'pay_c', delivered: ['sim-00003', 'sim-00006', 'sim-00009', 'sim-00012'], in_order: true },
  ]);
  // sim-00004 arrived at 3 s while the receiver still failed; it waited for sim-00001's retry minutes later (the
  // simulated receiver answers in no time, so it lands in the same virtual millisecond, after it in the log).
  const at = new Map(r.deliveries.map((d) => [d.event_id, d.delivered_at_ms!]));
  assert.ok(at.get('sim-00001')! > 60_000);
  assert.ok(at.get('sim-00004')! >= at.get('sim-00001')!);
  assert.deepEqual(
    r.deliveries.filter((d) => d.ordering_key === 'pay_a').map((d) => d.ordering_seq),
    [1, 2, 3, 4],
  );
  const human = await runCli(['simulate', '--scenario', file]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /order {6}3 ordering keys; every key delivered in accept order/);
  assert.match(human.stdout, /pay_a: sim-00001 → sim-00004 → sim-00007 → sim-00010/);
});

it('the same events without ordering keys are delivered out of accept order (what ordering prevents)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cli-ordering-'));
  try {
    const file = join(dir, 'unordered.json');
    writeFileSync(
      file,
      JSON.stringify({
        policy: 'standard',
        seed: 7,
        events: [{ at: '0s', count: 12, every: '1s', type: 'payment.status_changed', data: { status: 'paid' } }],
        receiver: [
          { from: '0s', to: '10s', respond: '503' },
          { from: '10s', respond: '200' },
        ],
      }),
    );
    const r = json<Run>(await runCli(['simulate', '--scenario', file, '--json']));
    assert.equal(r.order, undefined);
    const at = new Map(r.deliveries.map((d) => [d.event_id, d.delivered_at_ms!]));
    assert.ok(at.get('sim-00011')! < at.get('sim-00001')!, 'a later event lands first when nothing orders them');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a bad ordering_key or on_failure in a scenario is a one-line usage error naming its path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cli-ordering-'));
  try {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ events: [{ type: 'a.b', ordering_key: ['ok', 'x'.repeat(257)] }] }));
    const bad = await runCli(['simulate', '--scenario', file]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /events\[0\]\.ordering_key: must be a key \(at most 256 bytes\)/);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    writeFileSync(file, JSON.stringify({ on_failure: 'block', events: [{ type: 'a.b' }] }));
    const lone = await runCli(['simulate', '--scenario', file]);
    assert.notEqual(lone.code, 0);
    assert.match(lone.stderr, /on_failure: goes with events that carry an ordering_key/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
