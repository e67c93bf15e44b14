// The daily replay quota both window replays and catch-ups are counted against: its window and its refusal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS } from '../defaults.ts';
import { dailyReplayQuota, replayQuotaExceeded } from './replay-quota.ts';

const midnight = Date.UTC(2026, 2, 10);

test('the quota counts from the UTC midnight before now, at the configured or default maximum', () => {
  const now = midnight + 13 * 3_600_000 + 1234;
  assert.deepEqual(dailyReplayQuota({}, now), { max: DEFAULTS.replay.quotaPerDay, since: midnight });
  assert.deepEqual(dailyReplayQuota({ replayQuotaPerDay: 3 }, now), { max: 3, since: midnight });
  assert.deepEqual(dailyReplayQuota({}, midnight), { max: DEFAULTS.replay.quotaPerDay, since: midnight });
});

test('a refusal is 429 replay_quota_exceeded naming the maximum, retryable at the next UTC midnight', () => {
  const now = midnight + 86_400_000 - 1500;
  const err = replayQuotaExceeded(dailyReplayQuota({ replayQuotaPerDay: 5 }, now), now);
  assert.equal(err.code, 'replay_quota_exceeded');
  assert.equal(err.status, 429);
  assert.equal(err.message, 'at most 5 window replays per tenant per UTC day');
  assert.equal(err.retryAfterSec, 2);
});
