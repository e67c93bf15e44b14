// `hookline simulate` through the real executable: exact timelines of the four presets, a mixed script, a scenario.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { planTimeline, STANDARD, STRICT, seededRandom } from '@hookline/core';
import { H, MIN, S } from '@hookline/core/testing';
import { json, runCli } from './cli-harness.ts';

type Sim = {
  attempts: Array<{ n: number; at_ms: number; ladder: string; response: string; outcome: string }>;
  final: { status: string; reason: string | null; at_ms: number };
  transitions: Array<{ at_ms: number; kind: string; scope: string; from: string; to: string }>;
};

async function simulate(...args: string[]): Promise<Sim> {
  const run = await runCli(['simulate', ...args, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return json<Sim>(run);
}

describe('hookline simulate --json', { concurrency: true }, () => {
  it('payments, always 500: the plain fast ladder 0, 1, 3, … 511 s and no breaker transition (one delivery is one in the window)', async () => {
    const r = await simulate('--policy', 'payments', '--responses', '500', '--seed', '42');
    // docs/rules.md#payments-fast, #breaker-open: after the f-th failure the next attempt waits 2^(f-1) s; the breaker counts deliveries, not
    // attempts, so one delivery's own retries never open it. The 10th failure ends it.
    const at = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511].map((s) => s * S);
    assert.deepEqual(
      r.attempts.map((a) => a.at_ms),
      at,
    );
    assert.ok(r.attempts.every((a) => a.ladder === 'fast' && a.response === '500' && a.outcome === 'delivery_failure'));
    assert.deepEqual(r.final, {
      status: 'failed',
      reason: '10 delivery failures, fast-ladder budget spent; last: HTTP 500',
      at_ms: 511 * S,
    });
    assert.deepEqual(
      r.transitions.filter((t) => t.kind === 'breaker'),
      [],
    );
  });

  it('brief, always 500: 0 s, 30 s, 5 min 30 s, 35 min 30 s, then failed', async () => {
    const r = await simulate('--policy', 'brief', '--responses', '500', '--seed', '42');
    assert.deepEqual(
      r.attempts.map((a) => a.at_ms),
      [0, 30 * S, 330 * S, 2130 * S],
    );
    assert.deepEqual(r.final, { status: 'failed', reason: 'all 4 attempts failed; last: HTTP 500', at_ms: 2130 * S });
  });

  it('strict, always 500: the engine gives exactly the timeline the pure policy plans with the same seed', async () => {
    const r = await simulate('--policy', 'strict', '--responses', '500', '--seed', '42');
    const plan = planTimeline(STRICT, [500], { random: seededRandom(42) });
    assert.deepEqual(
      r.attempts.map((a) => a.at_ms),
      plan.attempts.map((a) => a.startedAt),
    );
    // 30 s, 2 min, 10 min, 1 h, then hourly, each ±10 %, inside 24 h.
    const gaps = r.attempts.slice(1).map((a, i) => a.at_ms - r.attempts[i].at_ms);
    const nominal = [30 * S, 2 * MIN, 10 * MIN, H];
    gaps.forEach((g, i) => {
      const n = nominal[Math.min(i, 3)];
      assert.ok(g >= 0.9 * n && g <= 1.1 * n, `gap ${i + 1}: ${g} not within ±10 % of ${n}`);
    });
    assert.ok(r.attempts.at(-1)!.at_ms <= 24 * H);
    assert.deepEqual(r.final, {
      status: 'failed',
      reason: '24h retry window ended; last: HTTP 500',
      at_ms: r.attempts.at(-1)!.at_ms,
    });
  });

  it('standard, always 500: 8 attempts, each pause within ±20 % of 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; exact with the seed', async () => {
    const r = await simulate('--policy', 'standard', '--responses', '500', '--seed', '42');
    const nominal = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H];
    assert.equal(r.attempts.length, 8);
    r.attempts.slice(1).forEach((a, i) => {
      const gap = a.at_ms - r.attempts[i].at_ms;
      assert.ok(
        gap >= 0.8 * nominal[i] && gap <= 1.2 * nominal[i],
        `gap ${i + 1}: ${gap} not within ±20 % of ${nominal[i]}`,
      );
    });
    assert.deepEqual(
      r.attempts.map((a) => a.at_ms),
      planTimeline(STANDARD, [500], { random: seededRandom(42) }).attempts.map((a) => a.startedAt),
    );
    // Equal to the pure plan with the same seed: the seed makes the engine's jitter repeatable.
    assert.equal(r.final.status, 'failed');
  });

  it('payments money event 500,500,404,timeout,200: fast, fast, slow after the 404, the timeout spends 10 s, then delivered', async () => {
    const r = await simulate(
      '--policy',
      'payments',
      '--type',
      'payment.status_changed',
      '--data',
      '{"status":"paid"}',
      '--responses',
      '500,500,404,timeout,200',
      '--seed',
      '42',
    );
    const slow = 3 * S + 15 * MIN;
    assert.deepEqual(r.attempts, [
      { n: 1, at_ms: 0, ladder: 'fast', response: '500', outcome: 'delivery_failure' },
      { n: 2, at_ms: 1 * S, ladder: 'fast', response: '500', outcome: 'delivery_failure' },
      { n: 3, at_ms: 3 * S, ladder: 'fast', response: '404', outcome: 'client_error' },
      { n: 4, at_ms: slow, ladder: 'slow', response: 'timeout', outcome: 'delivery_failure' },
      // A delay counts from the end of the previous attempt: 10 s timeout + the 3rd fast step (4 s).
      { n: 5, at_ms: slow + 10 * S + 4 * S, ladder: 'fast', response: '200', outcome: 'success' },
    ]);
    assert.deepEqual(r.final, { status: 'succeeded', reason: null, at_ms: slow + 14 * S });
  });

  it('payments non-money event, 404: failed at once, no retry', async () => {
    const r = await simulate('--policy', 'payments', '--type', 'refund.failed', '--responses', '404', '--seed', '1');
    assert.equal(r.attempts.length, 1);
    assert.equal(r.final.status, 'failed');
    assert.match(r.final.reason ?? '', /non-money/);
  });

  it('human output: a table of n, at, ladder, response, outcome, next, and the end', async () => {
    const run = await runCli(['simulate', '--policy', 'brief', '--responses', 'reset,503,200', '--seed', '3']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /N\s+AT\s+LADDER\s+RESPONSE\s+OUTCOME\s+NEXT/);
    assert.match(run.stdout, /1\s+0s\s+fast\s+reset\s+delivery_failure\s+retry at 30s \(\+30s, fast\)/);
    assert.match(run.stdout, /3\s+5m 30s\s+fast\s+200\s+success\s+delivered/);
    assert.match(run.stdout, /succeeded at 5m 30s after 3 attempts/);
  });

  it('scenario: 10 payments events, receiver down 10 minutes then up; breaker opens, probes, closes; all delivered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-cli-scenario-'));
    try {
      const file = join(dir, 'outage.json');
      writeFileSync(
        file,
        JSON.stringify({
          policy: 'payments',
          seed: 9,
          events: [{ at: '0s', count: 10, type: 'payment.status_changed', data: { status: 'paid' } }],
          receiver: [
            { from: '0s', to: '10m', respond: ['503', 'timeout'] },
            { from: '10m', respond: '200' },
          ],
        }),
      );
      const run = await runCli(['simulate', '--scenario', file, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const r = json(run);
      assert.equal(r.deliveries.length, 10);
      for (const d of r.deliveries) {
        assert.equal(d.status, 'succeeded');
        assert.ok(d.delivered_at_ms >= 10 * MIN, `delivered at ${d.delivered_at_ms}, while the receiver was down`);
        assert.ok(d.attempts >= 1);
      }
      const breaker = r.transitions
        .filter((t: { kind: string }) => t.kind === 'breaker')
        .map((t: { at_ms: number; from: string; to: string }) => `${t.at_ms} ${t.from}>${t.to}`);
      // Opens at once, the probe at 5 min fails (still down), the next one 10 min later succeeds.
      assert.equal(breaker[0], '0 closed>open');
      assert.equal(breaker.at(-1), `${15 * MIN} probing>closed`);
      assert.ok(r.transitions.some((t: { kind: string; to: string }) => t.kind === 'health' && t.to === 'degraded'));
      assert.equal(r.summary.delivered, 10);
      assert.equal(r.summary.attempts.total, r.attempts.length);
      assert.ok(
        r.attempts.every((a: { at_ms: number; outcome: string }) => a.at_ms < 10 * MIN === (a.outcome !== 'success')),
      );

      const human = await runCli(['simulate', '--scenario', file]);
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /delivered\s+10 of 10 \(first at 15m/);
      assert.match(human.stdout, /attempts\s+\d+ in all; per delivery min \d+ \/ median \d+ \/ max \d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scenario docs/scenarios/pause-and-replay.json: paused while 20 deliveries retry, they end failed (endpoint_paused); reactivated and window-replayed, all 20 recovered', async () => {
    const file = fileURLToPath(new URL('../../../docs/scenarios/pause-and-replay.json', import.meta.url));
    const run = await runCli(['simulate', '--scenario', file, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const r = json(run);
    const retried = r.deliveries.filter((d: { accepted_at_ms: number }) => d.accepted_at_ms === 0);
    const whilePaused = r.deliveries.filter((d: { accepted_at_ms: number }) => d.accepted_at_ms === 30 * MIN);
    assert.deepEqual([retried.length, whilePaused.length], [20, 5]);
    // Nothing is attempted between the pause (20 min) and the replay (1 h); the replay is each one's last attempt.
    assert.ok(r.attempts.every((a: { at_ms: number }) => a.at_ms < 20 * MIN || a.at_ms >= H));
    const replayed = r.attempts.filter((a: { at_ms: number }) => a.at_ms >= H);
    assert.equal(replayed.length, 20);
    assert.ok(
      replayed.every((a: { trigger: string; outcome: string }) => a.trigger === 'replay' && a.outcome === 'success'),
    );
    assert.ok(retried.every((d: { status: string }) => d.status === 'succeeded'));
    assert.ok(
      whilePaused.every((d: { status: string; attempts: number }) => d.status === 'skipped' && d.attempts === 0),
      'arrived while paused: skipped',
    );
    assert.deepEqual(r.actions, [
      { at_ms: 20 * MIN, do: 'pause', error: null, replay: null },
      { at_ms: H, do: 'reactivate', error: null, replay: null },
      { at_ms: H, do: 'replay', error: null, replay: { selected: 20, attempted: 20, succeeded: 20, failed: 0 } },
    ]);
    assert.deepEqual(r.endpoint, { status: 'active', pause_reason: null });

    const human = await runCli(['simulate', '--scenario', file]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /action\s+1h replay: selected 20, attempted 20, succeeded 20, failed 0/);
  });

  it('scenario docs/scenarios/pause-and-catch-up.json: reactivated with catch_up, the 20 failed (endpoint_paused) and the 5 skipped are each delivered once', async () => {
    const file = fileURLToPath(new URL('../../../docs/scenarios/pause-and-catch-up.json', import.meta.url));
    const run = await runCli(['simulate', '--scenario', file, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const r = json(run);
    assert.equal(r.deliveries.length, 25);
    assert.ok(r.deliveries.every((d: { status: string }) => d.status === 'succeeded'));
    const replayed = r.attempts.filter((a: { at_ms: number }) => a.at_ms >= H);
    assert.equal(replayed.length, 25);
    assert.equal(new Set(replayed.map((a: { event_id: string }) => a.event_id)).size, 25, 'each once');
    assert.ok(
      replayed.every((a: { trigger: string; outcome: string }) => a.trigger === 'replay' && a.outcome === 'success'),
    );
    assert.deepEqual(r.actions, [
      { at_ms: 20 * MIN, do: 'pause', error: null, replay: null },
      { at_ms: H, do: 'reactivate', error: null, replay: { selected: 25, attempted: 25, succeeded: 25, failed: 0 } },
    ]);
  });

  it('scenario: a window replay while the endpoint is paused is refused (endpoint_paused) and selects nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-cli-scenario-'));
    try {
      const file = join(dir, 'paused.json');
      writeFileSync(
        file,
        JSON.stringify({
          policy: 'standard',
          seed: 1,
          events: [{ at: '0s', count: 3, type: 'm.x', data: {} }],
          receiver: [{ from: '0s', respond: '503' }],
          actions: [
            { at: '1m', do: 'pause' },
            { at: '2h', do: 'replay' },
          ],
        }),
      );
      const r = json(await runCli(['simulate', '--scenario', file, '--json']));
      assert.deepEqual(
        r.actions.map((a: { do: string; error: string | null }) => `${a.do}:${a.error}`),
        ['pause:null', 'replay:endpoint_paused'],
      );
      assert.ok(
        r.deliveries.every(
          (d: { status: string; reason: string }) => d.status === 'failed' && d.reason === 'endpoint_paused',
        ),
      );
      assert.deepEqual(r.endpoint, { status: 'paused', pause_reason: 'manual' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
