// `hookline simulate --scenario` with an endpoint rate limit and 503s: the pace holds at the limit (docs/rules.md#rate-limit)
// and the concurrency drops on the 503s (docs/rules.md#adaptive-concurrency); limits in a scenario are validated.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { json, runCli } from './cli-harness.ts';

type Summary = {
  summary: {
    delivered: number;
    deliveries: number;
    pacing: { rate_limit_per_s: number; attempts_per_s: number; busiest_second: number };
    concurrency: { max: number; changes: Array<{ at_ms: number; effective: number }> };
  };
};

test('scenario docs/scenarios/rate-limit-and-throttle.json: paced at 20/s, concurrency cut by the 503s and regrown', async () => {
  const file = fileURLToPath(new URL('../../../docs/scenarios/rate-limit-and-throttle.json', import.meta.url));
  const run = await runCli(['simulate', '--scenario', file, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const s = json<Summary>(run).summary;
  assert.equal(s.delivered, 200);
  assert.equal(s.pacing.rate_limit_per_s, 20);
  assert.ok(s.pacing.attempts_per_s >= 18 && s.pacing.attempts_per_s <= 22, `pace ${s.pacing.attempts_per_s}`);
  assert.ok(s.pacing.busiest_second <= 20 + 2, `busiest second ${s.pacing.busiest_second}`);
  assert.equal(s.concurrency.max, 10);
  const during = s.concurrency.changes.filter((c) => c.at_ms < 3000);
  assert.ok(
    during.length > 0 && during.every((c, i) => i === 0 || c.effective <= during[i - 1].effective),
    JSON.stringify(during),
  );
  assert.ok(during.at(-1)!.effective < 10);
  const after = s.concurrency.changes.filter((c) => c.at_ms >= 3000);
  assert.ok(
    after.length > 0 && after.at(-1)!.effective > during.at(-1)!.effective,
    'it grows again while the receiver answers 200',
  );
  const human = await runCli(['simulate', '--scenario', file]);
  assert.match(human.stdout, /^pace {7}\d+(\.\d+)? attempts\/s, busiest second \d+ \(limit 20\/s/m);
  assert.match(human.stdout, /^throttle {3}concurrency 10 → /m);
});

test("a scenario's rate_limit_per_s and max_concurrency are validated with their path", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cli-pacing-'));
  try {
    for (const [key, value] of [
      ['rate_limit_per_s', 0],
      ['rate_limit_per_s', 10_001],
      ['max_concurrency', 1.5],
    ] as const) {
      const file = join(dir, `${key}.json`);
      writeFileSync(file, JSON.stringify({ [key]: value, events: [{ type: 'a.b' }] }));
      const run = await runCli(['simulate', '--scenario', file]);
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, new RegExp(`${key}: must be a whole number from 1 to`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
