// Clock jumps during running ladders: the injected clock leaps forward 1 h and back 5 min (an NTP step, a VM resumed)
// while 50 deliveries climb the `standard` ladder against a failing receiver. Nothing is lost, no attempt comes
// earlier than its scheduled time by more than the jump, and a jump never makes a delivery burn several steps at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Clock, VirtualClock } from '../src/clock.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { H, MIN } from '../testing/time.ts';

/** True time moves only forward (the test drives it); what the engine reads is true time plus an offset that jumps. */
class JumpingClock implements Clock {
  trueNow: number;
  offset = 0;
  constructor(start: number) {
    this.trueNow = start;
  }
  now(): number {
    return this.trueNow + this.offset;
  }
}

test('clock jumps +1 h and −5 min mid-ladder: nothing lost, nothing early beyond the jump, no storm', {
  timeout: 60_000,
}, async () => {
  const clock = new JumpingClock(Date.UTC(2026, 0, 5, 12));
  const receiver = await startReceiver(() => 500);
  const t = await testEngine({ clock: clock as unknown as VirtualClock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: receiver.url, policy: 'standard' });
    const ladderLength = t.engine.policies.get('standard')!.fast.delaysMs.length + 1;

    // Per delivery: every attempt's start and the time its next attempt was scheduled for, both in true time.
    interface Seen {
      trueStart: number;
      trueScheduledNext: number | null;
      round: number;
    }
    const attempts = new Map<string, Seen[]>();
    let round = 0;
    t.engine.addObserver({
      attempt: ({ attempt, next }) => {
        const list = attempts.get(attempt.deliveryId) ?? [];
        const nextAt = next.status === 'pending' ? next.nextAttemptAt : null;
        list.push({
          trueStart: attempt.startedAt - clock.offset,
          trueScheduledNext: nextAt === null ? null : nextAt - clock.offset,
          round,
        });
        attempts.set(attempt.deliveryId, list);
      },
    });

    // Five waves of ten events a minute apart, so the ladders interleave when the jumps land.
    const ids: string[] = [];
    for (let wave = 0; wave < 5; wave++) {
      const results = await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 10 }, (_, i) => ({ event_id: `w${wave}-${i}`, type: 'order.created', data: { wave, i } })),
      );
      for (const r of results) {
        assert.ok(!(r instanceof Error));
        ids.push(r.deliveries[0].id);
      }
      await t.engine.runDue();
      round++;
      clock.trueNow += MIN;
    }

    const start = clock.trueNow;
    let jumpedForward = false;
    let jumpedBack = false;
    for (; round < 10_000; round++) {
      if (!jumpedForward && clock.trueNow - start >= 20 * MIN) {
        clock.offset += H;
        jumpedForward = true;
      } else if (jumpedForward && !jumpedBack && clock.trueNow - start >= 3 * H) {
        clock.offset -= 5 * MIN;
        jumpedBack = true;
      }
      await t.engine.runDue();
      const next = await t.store.queue.nextDueAt();
      if (next === null) break;
      // Time moves on to the next due row, but in steps of at most 10 min so the jumps land mid-ladder.
      clock.trueNow += Math.max(1, Math.min(next - clock.now(), 10 * MIN));
    }
    assert.ok(jumpedForward && jumpedBack, 'both jumps happened while work was pending');

    const counts = await t.store.reporting.countByStatus();
    assert.equal(counts.failed, ids.length, `every delivery ran its ladder to the end: ${JSON.stringify(counts)}`);
    assert.equal(counts.pending + counts.delivering + counts.held, 0);
    for (const id of ids) {
      const list = attempts.get(id) ?? [];
      assert.equal(list.length, ladderLength, `${id}: ${list.length} attempts, the ladder has ${ladderLength}`);
      assert.equal((await t.store.reporting.listAttempts(id)).length, ladderLength, `${id}: every attempt recorded`);
      for (let k = 1; k < list.length; k++) {
        const scheduled = list[k - 1].trueScheduledNext!;
        // Early by at most the forward jump (1 h); the backward jump only ever makes attempts later.
        assert.ok(
          list[k].trueStart >= scheduled - H,
          `${id} attempt ${k + 1} came ${(scheduled - list[k].trueStart) / MIN} min early`,
        );
        // No storm: one attempt per delivery per pass, however far the clock leapt.
        assert.ok(list[k].round > list[k - 1].round, `${id}: attempts ${k} and ${k + 1} in the same pass`);
      }
    }
    // The forward jump did bring some attempts early (else the test proved nothing), and only by up to the jump.
    const early = [...attempts.values()]
      .flatMap((l) => l.slice(1).map((a, k) => l[k].trueScheduledNext! - a.trueStart))
      .filter((ms) => ms > 0);
    assert.ok(early.length > 0, 'some attempts were pulled forward by the jump');
    assert.equal(receiver.received.length, ids.length * ladderLength, 'every attempt reached the receiver once');
  } finally {
    await t.close();
    await receiver.close();
  }
});
