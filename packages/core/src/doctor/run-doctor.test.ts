// Unit tests of the doctor's runner caps and request marking, on a virtual clock with a scripted in-process sender.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../clock.ts';
import { spacedJson } from './case-requests.ts';
import type { DoctorSender } from './run-doctor.ts';
import { DOCTOR_MAX_DURATION_MS, DOCTOR_MAX_REQUESTS, runDoctor } from './run-doctor.ts';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  at: number;
}

/** Answers every request with `status` after spending `spendMs` of virtual time (a timeout when spendMs ≥ the request's timeout). */
function scriptedSender(clock: VirtualClock, spendMs: number, status = 200): DoctorSender & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    async send(r) {
      sent.push({ ...r, at: clock.now() });
      const spent = Math.min(spendMs, r.timeoutMs);
      clock.advance(spent);
      if (spendMs >= r.timeoutMs)
        return {
          status: null,
          durationMs: spent,
          errorClass: 'timeout',
          errorMessage: `no full response within ${r.timeoutMs} ms`,
        };
      return { status, durationMs: spent, errorClass: status < 300 ? null : 'status', errorMessage: null };
    },
  };
}

const target = {
  url: 'https://receiver.example/hooks',
  scheme: 'hookline' as const,
  secrets: [{ kid: 'k1', secret: 'whsec_c2VjcmV0' }],
};

test('a receiver that never answers cannot keep the doctor past its 60 s budget: later requests are cut to what is left, then none are sent', async () => {
  const clock = new VirtualClock();
  const sender = scriptedSender(clock, Number.POSITIVE_INFINITY);
  const start = clock.now();
  const report = await runDoctor({ ...target, timeoutMs: 25_000 }, { sender, clock });
  // 25 s + 25 s + the 10 s left: three requests, the third cut to the remaining budget.
  assert.deepEqual(
    sender.sent.map((s) => s.timeoutMs),
    [25_000, 25_000, 10_000],
  );
  for (const s of sender.sent) assert.ok(s.at + s.timeoutMs <= start + DOCTOR_MAX_DURATION_MS);
  assert.equal(report.stoppedBy, 'max_duration');
  assert.equal(report.durationMs, DOCTOR_MAX_DURATION_MS);
  assert.equal(report.requestsSent, 3);
  assert.equal(report.cases[0].grade, 'fail');
  // The duplicates case got one of its three copies: not graded, reported as cut short.
  assert.equal(report.cases[1].grade, 'skip');
  assert.match(report.cases[1].explanation, /budget ran out after 2 of 3 requests/);
  for (const c of report.cases.slice(2).filter((x) => x.applicable)) {
    assert.equal(c.grade, 'skip');
    assert.match(c.explanation, /not run: the doctor's 60 s budget ran out/);
  }
});

test('the request cap: a case runs only when all its requests fit, and a higher cap is clamped to 30', async () => {
  const clock = new VirtualClock();
  const sender = scriptedSender(clock, 5);
  const report = await runDoctor(target, { sender, clock, maxRequests: 4 });
  assert.equal(sender.sent.length, 4); // case 1 (one request) and case 2 (three), not case 3a's fifth
  assert.equal(report.stoppedBy, 'max_requests');
  assert.deepEqual(
    report.cases.slice(0, 2).map((c) => c.grade),
    ['pass', 'pass'],
  );
  assert.match(report.cases[2].explanation, /cap of 4 requests/);

  const all = await runDoctor(target, {
    sender: scriptedSender(clock, 5),
    clock,
    maxRequests: 500,
    maxDurationMs: 10 * 60_000,
  });
  assert.deepEqual(all.limits, {
    maxRequests: DOCTOR_MAX_REQUESTS,
    maxDurationMs: DOCTOR_MAX_DURATION_MS,
    timeoutMs: 10_000,
  });
  assert.equal(all.stoppedBy, null);
  assert.ok(all.requestsSent <= DOCTOR_MAX_REQUESTS);
});

test('on the standard scheme too, every request (bad signatures and tampered bodies included) is marked', async () => {
  const clock = new VirtualClock();
  const sender = scriptedSender(clock, 5);
  await runDoctor(
    { ...target, scheme: 'standard', schema: { type: 'object', required: ['order_id'] }, example: { order_id: 'o1' } },
    { sender, clock },
  );
  assert.equal(sender.sent.length, 14);
  for (const s of sender.sent) {
    assert.equal(s.headers['X-Webhook-Doctor'], '1');
    assert.match(s.headers['webhook-id'], /^doctor_evt_/);
  }
});

test('every request goes to the one URL, carries X-Webhook-Doctor: 1 and a doctor_ event id in header and body', async () => {
  const clock = new VirtualClock();
  const sender = scriptedSender(clock, 5);
  const report = await runDoctor(
    {
      ...target,
      previousSecret: { kid: 'k0', secret: 'old' },
      schema: { type: 'object', required: ['order_id'] },
      example: { order_id: 'o1' },
    },
    { sender, clock },
  );
  assert.equal(report.requestsSent, 15);
  assert.equal(sender.sent.length, 15);
  for (const s of sender.sent) {
    assert.equal(s.url, target.url);
    assert.equal(s.headers['X-Webhook-Doctor'], '1');
    assert.match(s.headers['X-Webhook-Id'], /^doctor_evt_/);
    assert.match(s.headers['X-Webhook-Delivery'], /^doctor_dlv_/);
    assert.ok(s.body.includes(`"event_id": "${s.headers['X-Webhook-Id']}"`));
  }
  // Nothing skipped: the schema and the previous secret make every case applicable.
  // A receiver answering 200 to everything: the four refusal cases fail, bad JSON and the missing field warn.
  assert.deepEqual(report.score, { passed: 6, applicable: 12, warned: 2, failed: 4, skipped: 0 });
  assert.equal(report.fixes.length, 6);
  assert.deepEqual(
    report.fixes.map((f) => [f.number, f.grade]),
    [
      ['3a', 'fail'],
      ['3b', 'fail'],
      ['4a', 'fail'],
      ['4b', 'fail'],
      ['5', 'warn'],
      ['6', 'warn'],
    ],
  );
});

test('without a schema or a previous secret, cases 6 and 9 are skipped with the reason and leave the score', async () => {
  const clock = new VirtualClock();
  const report = await runDoctor(target, { sender: scriptedSender(clock, 5), clock });
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  assert.equal(byId.get('missing_required_field')!.grade, 'skip');
  assert.match(byId.get('missing_required_field')!.explanation, /no schema/);
  assert.equal(byId.get('previous_secret')!.grade, 'skip');
  assert.equal(report.score.applicable, 10);
  assert.equal(report.requestsSent, 13);
});

test('bodies are laid out with spaces, parse back to the same value, and differ from JSON.stringify', () => {
  const value = { a: 1, b: [true, null, { c: 'x, y: z' }], d: { e: 'é' } };
  const text = spacedJson(value);
  assert.equal(text, '{"a": 1, "b": [true, null, {"c": "x, y: z"}], "d": {"e": "é"}}');
  assert.deepEqual(JSON.parse(text), value);
  assert.notEqual(JSON.stringify(JSON.parse(text)), text);
});
