// Notifications once per transition, never per failure (docs/rules.md#notifications): notices, owner e-mail through a
// real SMTP sink on 127.0.0.1, and operational webhooks delivered by Hookline itself to the tenant's operations
// endpoint, all sent from the engine's outbox; deliveries that fail for good are summarised per endpoint.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Hookline, VirtualClock } from '@hookline/core';
import { settle, startReceiver, testEngine } from '@hookline/core/testing';
import { createNotifier, type Notifier, smtpMailer } from '../src/notify/index.ts';
import { smtpSink } from './fixtures/smtp-sink.ts';

/** Runs the engine and the notifier until neither has work left (operational events are deliveries too). */
async function drain(engine: Hookline, clock: VirtualClock, notifier: Notifier, until?: number) {
  for (let i = 0; i < 20; i++) {
    await settle(engine, clock, { until });
    await notifier.idle();
    const next = await engine.nextDueAt();
    if (next === null || (until !== undefined && next > until)) return;
  }
}

async function setup(opts: { ops?: boolean } = {}) {
  const t = await testEngine();
  const sink = await smtpSink();
  const notifier = createNotifier({
    engine: t.engine,
    mailer: smtpMailer({
      host: '127.0.0.1',
      port: sink.port,
      ignoreTLS: true,
      from: 'hookline@example.test',
      retryDelayMs: 10,
    }),
  });
  const opsRx = await startReceiver(() => 200, { clock: t.clock });
  let opsId: string | null = null;
  if (opts.ops) {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: opsRx.url,
      policy: 'standard',
      event_types: ['ops.never'],
    });
    opsId = endpoint.id;
    await t.store.catalog.updateTenant(t.tenantId, { operationsEndpointId: opsId }, t.clock.now());
  }
  const opsEvents = () =>
    opsRx.received.map((r) => JSON.parse(r.body.toString()) as { type: string; data: Record<string, unknown> });
  const opsBody = (i: number) => opsRx.received[i].body.toString();
  return {
    ...t,
    sink,
    notifier,
    opsId,
    opsEvents,
    opsBody,
    notices: async () => (await t.store.outbox.listNotices(t.tenantId, null, 100)).items.reverse(),
    async closeAll() {
      await notifier.close();
      await opsRx.close();
      await sink.close();
      await t.close();
    },
  };
}

test('the degradation mail is sent once across many failures; recovery is told once too', async () => {
  const s = await setup();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: s.clock });
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, { url: rx.url });
    await s.engine.events.acceptMany(
      s.tenantId,
      Array.from({ length: 3 }, (_, i) => ({ type: 'order.created', data: { i } })),
    );
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 24, '3 events × 8 attempts');
    const degradedMails = s.sink.mails.filter((m) => m.subject.includes('Endpoint failing'));
    assert.equal(degradedMails.length, 1);
    assert.deepEqual(degradedMails[0].to, ['owner@example.test']);
    assert.match(degradedMails[0].raw, new RegExp(endpoint.id));
    assert.equal(s.sink.mails.length, 1, 'non-money delivery failures are noticed, not mailed');
    const notices = await s.notices();
    assert.deepEqual(
      notices.map((n) => n.kind),
      ['endpoint.degraded', 'deliveries.failed'],
      'one summary, not one notice per delivery',
    );
    assert.equal(notices[1].data.count, 3);
    assert.match(notices[1].message, /^3 deliveries to endpoint .* failed for good/);

    answer = 200;
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await drain(s.engine, s.clock, s.notifier);
    // A recovery is told once it has held for the reopen window (docs/rules.md#notifications).
    s.clock.advance(15 * 60_000);
    await s.notifier.idle();
    assert.deepEqual((await s.notices()).map((n) => n.kind).slice(2), ['endpoint.recovered']);
    assert.equal(s.sink.mails.filter((m) => m.subject.includes('Endpoint recovered')).length, 1);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('a failure summary reaches the operations endpoint as an operational webhook under its outbox id, a money event flagged and mailed', async () => {
  const s = await setup({ ops: true });
  const rx = await startReceiver(() => 503, { clock: s.clock });
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, {
      url: rx.url,
      policy: 'brief',
      event_types: ['refund.*'],
    });
    await s.engine.events.accept(s.tenantId, { event_id: 'rf-1', type: 'refund.completed', data: { amount: 10 } });
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 4);
    const ops = s.opsEvents();
    assert.deepEqual(
      ops.map((e) => e.type),
      ['endpoint.degraded', 'deliveries.failed'],
    );
    const failed = ops[1].data;
    assert.deepEqual([failed.count, failed.money, failed.more, failed.endpoint_id], [1, 1, 0, endpoint.id]);
    assert.deepEqual(failed.deliveries, [
      {
        delivery_id: (failed.deliveries as Array<{ delivery_id: string }>)[0].delivery_id,
        event_id: 'rf-1',
        event_type: 'refund.completed',
        money: true,
      },
    ]);
    const notice = (await s.notices()).find((n) => n.kind === 'deliveries.failed');
    assert.ok(notice);
    assert.equal(
      (JSON.parse(s.opsBody(1)) as { event_id: string }).event_id,
      notice.id,
      'the operational event id is the outbox (and notice) id: a receiver dedupes a resend',
    );
    assert.match(notice.message, /^1 delivery \(1 money event\) to endpoint .* failed for good.*rf-1/);
    const moneyMail = s.sink.mails.filter((m) => m.subject.includes('MONEY EVENTS failed'));
    assert.equal(moneyMail.length, 1);
    assert.match(
      moneyMail[0].raw,
      new RegExp(`^Message-ID: <${notice.id}@`, 'mi'),
      "the mail's Message-ID is the outbox id",
    );
    // The operational events went only to the operations endpoint, not to every endpoint by subscription.
    assert.equal(rx.received.length, 4);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test("the operations endpoint's own trouble is never reported through itself", async () => {
  const s = await setup();
  const rx = await startReceiver(() => 500, { clock: s.clock });
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'brief' });
    await s.store.catalog.updateTenant(s.tenantId, { operationsEndpointId: endpoint.id }, s.clock.now());
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 4, "only the one event's attempts: no notification loop");
    assert.deepEqual(
      (await s.notices()).map((n) => n.kind),
      ['endpoint.degraded', 'deliveries.failed'],
    );
    assert.equal(s.sink.mails.length, 1);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('breaker opened and closed are noticed once each, not per failed probe', async () => {
  const s = await setup({ ops: true });
  const rx = await startReceiver(() => 500, { clock: s.clock });
  try {
    await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'payments', event_types: ['subscription.*'] });
    const t0 = s.clock.now();
    await s.engine.events.acceptMany(
      s.tenantId,
      Array.from({ length: 5 }, (_, i) => ({ type: 'subscription.renewed', data: { i } })),
    );
    await drain(s.engine, s.clock, s.notifier, t0 + 40 * 60_000);
    let kinds = (await s.notices()).map((n) => n.kind);
    assert.equal(kinds.filter((k) => k === 'breaker.opened').length, 1, kinds.join());
    assert.equal(kinds.filter((k) => k === 'endpoint.degraded').length, 1);
    await s.engine.breakers.reset({ tenantId: s.tenantId });
    await s.notifier.idle();
    kinds = (await s.notices()).map((n) => n.kind);
    assert.equal(kinds.filter((k) => k === 'breaker.closed').length, 1);
    const opened = (await s.notices()).find((n) => n.kind === 'breaker.opened');
    assert.equal(opened?.subjectId, `tenant:${s.tenantId}`);
    assert.equal(s.sink.mails.filter((m) => m.subject.includes('Circuit breaker opened')).length, 1);
    assert.equal(s.sink.mails.filter((m) => m.subject.includes('Circuit breaker closed')).length, 1);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('a mail relay that is down never blocks or fails delivery; the notice is still recorded', async () => {
  const t = await testEngine();
  const notifier = createNotifier({
    engine: t.engine,
    mailer: smtpMailer({
      host: '127.0.0.1',
      port: 1,
      ignoreTLS: true,
      from: 'x@example.test',
      tries: 2,
      retryDelayMs: 5,
      timeoutMs: 500,
    }),
  });
  const rx = await startReceiver((n) => (n === 1 ? 500 : 200), { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    await t.engine.events.accept(t.tenantId, { type: 'a', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 2);
    await notifier.idle();
    t.clock.advance(15 * 60_000); // the recovery is told once it has held for the reopen window
    await notifier.idle();
    const kinds = (await t.store.outbox.listNotices(t.tenantId, null, 10)).items.map((n) => n.kind).reverse();
    assert.deepEqual(kinds, ['endpoint.degraded', 'endpoint.recovered']);
  } finally {
    await notifier.close();
    await rx.close();
    await t.close();
  }
});

test('an outage sends one summary per endpoint at most every 15 minutes, with the count and the first ids, never a mail per delivery', async () => {
  const s = await setup({ ops: true });
  // strict fails a 400 for good at once: each delivery's end is exactly when its event is sent.
  const rx = await startReceiver(() => 400, { clock: s.clock });
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, {
      url: rx.url,
      policy: 'strict',
      event_types: ['refund.*'],
    });
    const refunds = (prefix: string, n: number) =>
      s.engine.events.acceptMany(
        s.tenantId,
        Array.from({ length: n }, (_, i) => ({ event_id: `${prefix}-${i}`, type: 'refund.completed', data: { i } })),
      );
    const summaryMails = () => s.sink.mails.filter((m) => m.subject.includes('MONEY EVENTS failed'));
    const summaries = async () => (await s.notices()).filter((n) => n.kind === 'deliveries.failed');

    await refunds('rf', 30);
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(summaryMails().length, 1, '30 money events failed: one mail');
    let notices = await summaries();
    assert.equal(notices.length, 1);
    const first = notices[0].data as {
      count: number;
      money: number;
      more: number;
      deliveries: Array<{ event_id: string }>;
    };
    assert.deepEqual(
      [first.count, first.money, first.more, first.deliveries.length],
      [30, 30, 10, 20],
      'the count, the first 20 ids, the rest counted',
    );
    assert.equal(new Set(first.deliveries.map((d) => d.event_id)).size, 20);
    assert.match(notices[0].message, /and 10 more/);
    assert.equal(notices[0].subjectId, endpoint.id);
    const firstAt = notices[0].createdAt;

    // Five more fail 5 minutes later, within the window: collected, not sent.
    s.clock.set(firstAt + 5 * 60_000);
    await refunds('late', 5);
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 35);
    assert.equal((await summaries()).length, 1, 'nothing within 15 minutes of the last summary');
    s.clock.set(firstAt + 15 * 60_000 - 1);
    await s.notifier.idle();
    assert.equal(summaryMails().length, 1);

    // The window ends: one summary of the five.
    s.clock.set(firstAt + 15 * 60_000);
    await drain(s.engine, s.clock, s.notifier);
    notices = await summaries();
    assert.equal(notices.length, 2);
    assert.deepEqual([notices[1].data.count, notices[1].data.more], [5, 0]);
    assert.equal(summaryMails().length, 2);
    assert.equal(s.opsEvents().filter((e) => e.type === 'deliveries.failed').length, 2);

    // Quiet since: nothing more is sent.
    s.clock.set(firstAt + 60 * 60_000);
    await drain(s.engine, s.clock, s.notifier);
    assert.equal((await summaries()).length, 2);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('a notification sent again (its worker died before marking it sent) is one notice and one operational event, its mail under the same Message-ID', async () => {
  const s = await setup({ ops: true });
  const rx = await startReceiver(() => 500, { clock: s.clock });
  try {
    await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'brief', event_types: ['order.*'] });
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await s.engine.runDue();
    const [row] = await s.store.outbox.claimOutbox(s.clock.now(), 10, s.clock.now() + 60_000);
    assert.equal(row.kind, 'endpoint.degraded');
    await s.notifier.send(row);
    await s.notifier.send(row); // the crash between the send and finishOutbox, replayed
    assert.equal(await s.store.outbox.finishOutbox(row.id, s.clock.now()), true);
    await drain(s.engine, s.clock, s.notifier, s.clock.now());
    assert.deepEqual(
      (await s.notices()).filter((n) => n.id === row.id).map((n) => n.kind),
      ['endpoint.degraded'],
    );
    assert.equal(
      s.opsEvents().filter((e) => e.type === 'endpoint.degraded').length,
      1,
      'the operational event was accepted once (same event id)',
    );
    const mails = s.sink.mails.filter((m) => m.subject.includes('Endpoint failing'));
    assert.equal(mails.length, 2, 'at least once');
    const ids = mails.map((m) => /^Message-ID: (.*)$/im.exec(m.raw)?.[1]?.trim());
    assert.equal(ids[0], `<${row.id}@hookline.invalid>`);
    assert.equal(ids[1], ids[0], 'a resend keeps its Message-ID, so the mail client dedupes it');
  } finally {
    await rx.close();
    await s.closeAll();
  }
});
