// Notices per incident, not per flip (docs/rules.md#notifications), through the notifier and a real SMTP sink on
// 127.0.0.1: one poison event on a healthy endpoint flips it degraded → recovered → degraded in seconds, and the
// owners hear of it once; the recovery is told once it has held; a degradation after the window is a new incident.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Hookline, VirtualClock } from '@hookline/core';
import { settle, startReceiver, testEngine } from '@hookline/core/testing';
import { createNotifier, type Notifier, smtpMailer } from '../src/notify/index.ts';
import { noticeView } from '../src/routes/notices/notice-view.ts';
import { smtpSink } from './fixtures/smtp-sink.ts';

const S = 1000;
const MIN = 60 * S;

async function setup(reopenWindowMs?: number) {
  const t = await testEngine(reopenWindowMs === undefined ? {} : { notifications: { reopenWindowMs } });
  const sink = await smtpSink();
  const notifier = createNotifier({
    engine: t.engine,
    mailer: smtpMailer({
      host: '127.0.0.1',
      port: sink.port,
      ignoreTLS: true,
      from: 'h@example.test',
      retryDelayMs: 10,
    }),
  });
  // A poison event fails until it is fixed; everything else is answered 200.
  const state = { poisonFixed: false };
  const rx = await startReceiver(
    (_n, req) => (!state.poisonFixed && req.body.toString().includes('poison') ? 500 : 200),
    { clock: t.clock },
  );
  const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, policy: 'standard' });
  return {
    ...t,
    sink,
    notifier,
    state,
    endpoint,
    notices: async () => (await t.store.outbox.listNotices(t.tenantId, null, 100)).items.reverse(),
    mails: (subject: string) => sink.mails.filter((m) => m.subject.includes(subject)),
    /** Accepts one event at `at` and runs what is due up to then. */
    async send(at: number, kind: 'poison' | 'good') {
      await runTo(t.engine, t.clock, at);
      await t.engine.events.accept(t.tenantId, { type: 'order.created', data: { kind } });
      await runTo(t.engine, t.clock, at);
    },
    async closeAll() {
      await notifier.close();
      await rx.close();
      await sink.close();
      await t.close();
    },
  };
}

/** Runs the engine's due work up to `at` on the virtual clock, then drains the outbox at `at`. */
async function runTo(engine: Hookline, clock: VirtualClock, at: number, notifier?: Notifier) {
  await settle(engine, clock, { until: at });
  if (clock.now() < at) clock.set(at);
  await notifier?.idle();
}

test('one poison event flipping a healthy endpoint degraded → recovered → degraded in 5 s sends one notice and one e-mail; the recovery is told once it held, and resolves the notice', async () => {
  const s = await setup();
  try {
    const t0 = s.clock.now();
    await s.send(t0, 'poison'); // fails: degraded
    await s.send(t0 + S, 'good'); // succeeds: recovered
    await runTo(s.engine, s.clock, t0 + 5 * S); // the poison's retry fails: degraded again
    await s.send(t0 + 6 * S, 'good'); // recovered again
    const health = await s.engine.endpoints.get(s.tenantId, s.endpoint.id);
    assert.equal(health.status, 'active', 'the health rules are as before: a success clears degradation');
    await s.notifier.idle();
    assert.deepEqual(
      (await s.notices()).map((n) => n.kind),
      ['endpoint.degraded'],
    );
    const failing = s.mails('Endpoint failing');
    assert.equal(failing.length, 1);
    assert.match(failing[0].raw, /once per incident/);
    assert.equal(s.mails('Endpoint recovered').length, 0, 'not yet: the recovery has not held for 15 min');

    s.state.poisonFixed = true; // its next retry (5 min later) succeeds: no flip
    await runTo(s.engine, s.clock, t0 + 6 * S + 15 * MIN - 1, s.notifier);
    assert.equal(s.mails('Endpoint recovered').length, 0);
    await runTo(s.engine, s.clock, t0 + 6 * S + 15 * MIN, s.notifier);
    const notices = await s.notices();
    assert.deepEqual(
      notices.map((n) => [n.kind, n.resolvedAt]),
      [
        ['endpoint.degraded', t0 + 6 * S],
        ['endpoint.recovered', null],
      ],
    );
    assert.equal(noticeView(notices[0]).resolved_at, new Date(t0 + 6 * S).toISOString(), 'the API says so');
    assert.equal(s.mails('Endpoint recovered').length, 1);
    assert.equal(s.mails('Endpoint failing').length, 1);
  } finally {
    await s.closeAll();
  }
});

test('a degradation 16 min after a recovery is a new incident; the window is configurable', async () => {
  const s = await setup();
  try {
    const t0 = s.clock.now();
    await s.send(t0, 'poison');
    await s.send(t0 + S, 'good');
    s.state.poisonFixed = true;
    await runTo(s.engine, s.clock, t0 + S + 15 * MIN, s.notifier);
    s.state.poisonFixed = false;
    await s.send(t0 + S + 16 * MIN, 'poison');
    await s.notifier.idle();
    assert.deepEqual(
      (await s.notices()).map((n) => [n.kind, n.resolvedAt]),
      [
        ['endpoint.degraded', t0 + S],
        ['endpoint.recovered', null],
        ['endpoint.degraded', null],
      ],
    );
    assert.equal(s.mails('Endpoint failing').length, 2);
  } finally {
    await s.closeAll();
  }

  // With a 2-minute window, a failure 3 minutes after the recovery is a new incident too.
  const short = await setup(2 * MIN);
  try {
    const t0 = short.clock.now();
    await short.send(t0, 'poison');
    await short.send(t0 + S, 'good');
    short.state.poisonFixed = true;
    await runTo(short.engine, short.clock, t0 + S + 2 * MIN, short.notifier);
    assert.equal(short.mails('Endpoint recovered').length, 1, 'told once the 2-minute window passed');
    short.state.poisonFixed = false;
    await short.send(t0 + S + 3 * MIN, 'poison');
    await short.notifier.idle();
    assert.equal(short.mails('Endpoint failing').length, 2);
  } finally {
    await short.closeAll();
  }
});
