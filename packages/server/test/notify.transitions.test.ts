// Notifications once per transition, never per failure: notices, owner e-mail through a real SMTP sink on
// 127.0.0.1, and operational webhooks delivered by Hookline itself to the tenant's operations endpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { VirtualClock, Hookline } from '@hookline/core';
import { settle, startReceiver, testEngine } from '@hookline/core/testing';
import { createNotifier, smtpMailer, type Notifier } from '../src/notify/index.ts';

interface Mail {
  to: string[];
  raw: string;
  subject: string;
}

async function smtpSink() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '' });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

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
  const notifier = createNotifier({ engine: t.engine, mailer: smtpMailer({ host: '127.0.0.1', port: sink.port, ignoreTLS: true, from: 'hookline@example.test', retryDelayMs: 10 }) });
  const opsRx = await startReceiver(() => 200, t.clock);
  let opsId: string | null = null;
  if (opts.ops) {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: opsRx.url, policy: 'standard', event_types: ['ops.never'] });
    opsId = endpoint.id;
    await t.store.updateTenant(t.tenantId, { operationsEndpointId: opsId }, t.clock.now());
  }
  const opsEvents = () => opsRx.received.map((r) => JSON.parse(r.body.toString()) as { type: string; data: Record<string, unknown> });
  return {
    ...t,
    sink,
    notifier,
    opsId,
    opsEvents,
    notices: async () => (await t.store.listNotices(t.tenantId, null, 100)).items.reverse(),
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
  const rx = await startReceiver(() => answer, s.clock);
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, { url: rx.url });
    await s.engine.events.acceptMany(s.tenantId, Array.from({ length: 3 }, (_, i) => ({ type: 'order.created', data: { i } })));
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 24, '3 events × 8 attempts');
    const degradedMails = s.sink.mails.filter((m) => m.subject.includes('Endpoint failing'));
    assert.equal(degradedMails.length, 1);
    assert.deepEqual(degradedMails[0].to, ['owner@example.test']);
    assert.match(degradedMails[0].raw, new RegExp(endpoint.id));
    assert.equal(s.sink.mails.length, 1, 'non-money delivery failures are noticed, not mailed');
    const kinds = (await s.notices()).map((n) => n.kind);
    assert.deepEqual(kinds, ['endpoint.degraded', 'delivery.failed', 'delivery.failed', 'delivery.failed']);

    answer = 200;
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await drain(s.engine, s.clock, s.notifier);
    assert.deepEqual((await s.notices()).map((n) => n.kind).slice(4), ['endpoint.recovered']);
    assert.equal(s.sink.mails.filter((m) => m.subject.includes('Endpoint recovered')).length, 1);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('delivery.failed reaches the operations endpoint as an operational webhook, a money event flagged and mailed', async () => {
  const s = await setup({ ops: true });
  const rx = await startReceiver(() => 503, s.clock);
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'brief', event_types: ['refund.*'] });
    await s.engine.events.accept(s.tenantId, { event_id: 'rf-1', type: 'refund.completed', data: { amount: 10 } });
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 4);
    const ops = s.opsEvents();
    assert.deepEqual(ops.map((e) => e.type), ['endpoint.degraded', 'delivery.failed']);
    const failed = ops[1].data;
    assert.equal(failed.event_id, 'rf-1');
    assert.equal(failed.money, true);
    assert.equal(failed.endpoint_id, endpoint.id);
    assert.equal(failed.attempts, 4);
    const moneyMail = s.sink.mails.filter((m) => m.subject.includes('MONEY EVENT delivery failed'));
    assert.equal(moneyMail.length, 1);
    const notice = (await s.notices()).find((n) => n.kind === 'delivery.failed');
    assert.match(notice?.message ?? '', /^A money event/);
    // The operational events went only to the operations endpoint, not to every endpoint by subscription.
    assert.equal(rx.received.length, 4);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('the operations endpoint\'s own trouble is never reported through itself', async () => {
  const s = await setup();
  const rx = await startReceiver(() => 500, s.clock);
  try {
    const { endpoint } = await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'brief' });
    await s.store.updateTenant(s.tenantId, { operationsEndpointId: endpoint.id }, s.clock.now());
    await s.engine.events.accept(s.tenantId, { type: 'order.created', data: {} });
    await drain(s.engine, s.clock, s.notifier);
    assert.equal(rx.received.length, 4, 'only the one event\'s attempts: no notification loop');
    assert.deepEqual((await s.notices()).map((n) => n.kind), ['endpoint.degraded', 'delivery.failed']);
    assert.equal(s.sink.mails.length, 1);
  } finally {
    await rx.close();
    await s.closeAll();
  }
});

test('breaker opened and closed are noticed once each, not per failed probe', async () => {
  const s = await setup({ ops: true });
  const rx = await startReceiver(() => 500, s.clock);
  try {
    await s.engine.endpoints.create(s.tenantId, { url: rx.url, policy: 'payments', event_types: ['subscription.*'] });
    const t0 = s.clock.now();
    await s.engine.events.acceptMany(s.tenantId, Array.from({ length: 5 }, (_, i) => ({ type: 'subscription.renewed', data: { i } })));
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
  const notifier = createNotifier({ engine: t.engine, mailer: smtpMailer({ host: '127.0.0.1', port: 1, ignoreTLS: true, from: 'x@example.test', tries: 2, retryDelayMs: 5, timeoutMs: 500 }) });
  const rx = await startReceiver((n) => (n === 1 ? 500 : 200), t.clock);
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    await t.engine.events.accept(t.tenantId, { type: 'a', data: {} });
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, 2);
    await notifier.idle();
    const kinds = (await t.store.listNotices(t.tenantId, null, 10)).items.map((n) => n.kind).reverse();
    assert.deepEqual(kinds, ['endpoint.degraded', 'endpoint.recovered']);
  } finally {
    await notifier.close();
    await rx.close();
    await t.close();
  }
});
