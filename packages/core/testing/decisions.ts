// Builders and assertions the retry-decision tests share (packages/core/src/policy/decide*.test.ts).
import assert from 'node:assert/strict';
import { startProgress } from '../src/policy/decide.ts';
import { planTimeline } from '../src/policy/timeline.ts';
import type { DeliveryProgress, NextStep, Policy } from '../src/policy/types.ts';

export const half = () => 0.5; // jitter factor exactly 1

export function starts(
  policy: Policy,
  script: Parameters<typeof planTimeline>[1],
  options: Parameters<typeof planTimeline>[2] = {},
) {
  const timeline = planTimeline(policy, script, options);
  return { at: timeline.attempts.map((a) => a.startedAt), end: timeline.end, timeline };
}

export function retry(step: NextStep): Extract<NextStep, { kind: 'retry' }> {
  assert.equal(step.kind, 'retry', `expected retry, got ${JSON.stringify(step)}`);
  return step as Extract<NextStep, { kind: 'retry' }>;
}

export function failed(step: NextStep): Extract<NextStep, { kind: 'fail' }> {
  assert.equal(step.kind, 'fail', `expected fail, got ${JSON.stringify(step)}`);
  return step as Extract<NextStep, { kind: 'fail' }>;
}

export const fresh = (over: Partial<DeliveryProgress> = {}): DeliveryProgress => ({
  ...startProgress(0, false),
  firstAttemptAt: 0,
  ...over,
});
