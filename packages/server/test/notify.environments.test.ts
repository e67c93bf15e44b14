// Notifications name the tenant's environment (docs/rules.md#environments): the mail's subject and body, the
// operational webhook's payload and the notice, for a test tenant and a live one on the same engine.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Environment } from '@hookline/core';
import { settle, startReceiver, testEngine } from '@hookline/core/testing';
import { createNotifier, smtpMailer } from '../src/notify/index.ts';
import { smtpSink } from './fixtures/smtp-sink.ts';

test("a test tenant's mail, operational webhook and notice say test; a live tenant's say live", async () => {
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
  const opsRx: Record<Environment, Awaited<ReturnType<typeof startReceiver>>> = {
    test: await startReceiver(() => 200, { clock: t.clock }),
    live: await startReceiver(() => 200, { clock: t.clock }),
  };
  const failing = await startReceiver(() => 503, { clock: t.clock });
  try {
    const tenants: Record<Environment, string> = { test: 'ten_SANDBOX', live: 'ten_PROD' };
    for (const [environment, id] of Object.entries(tenants) as Array<[Environment, string]>) {
      const now = t.clock.now();
      await t.store.catalog.createTenant({
        id,
        name: id,
        environment,
        ownerEmails: [`${environment}@example.test`],
        operationsEndpointId: null,
        notifyEmail: true,
        createdAt: now,
        updatedAt: now,
      });
      const ops = await t.engine.endpoints.create(id, {
        url: opsRx[environment].url,
        policy: 'standard',
        event_types: ['ops.never'],
      });
      await t.store.catalog.updateTenant(id, { operationsEndpointId: ops.endpoint.id }, now);
      await t.engine.endpoints.create(id, { url: failing.url, policy: 'brief', event_types: ['refund.*'] });
      // A money event: its dead letter's summary is mailed as well as noticed and sent to the operations endpoint.
      await t.engine.events.accept(id, {
        event_id: `rf-${environment}`,
        type: 'refund.completed',
        data: { amount: 10 },
      });
    }
    for (let i = 0; i < 20; i++) {
      await settle(t.engine, t.clock);
      await notifier.idle();
      if ((await t.store.queue.nextDueAt()) === null) break;
    }

    for (const [environment, id] of Object.entries(tenants) as Array<[Environment, string]>) {
      const mails = sink.mails.filter((m) => m.to.includes(`${environment}@example.test`));
      const money = mails.find((m) => m.subject.includes('MONEY EVENTS failed'));
      assert.ok(money, `${environment}: the money dead letter was mailed (${mails.map((m) => m.subject).join('; ')})`);
      assert.match(
        money.subject,
        new RegExp(`^\\[Hookline ${environment}\\] `),
        'the subject names the environment first',
      );
      assert.match(money.raw, new RegExp(`^Environment: ${environment}\\r?$`, 'm'), 'the body names it');
      assert.ok(
        mails.every((m) => m.subject.startsWith(`[Hookline ${environment}]`)),
        'every mail of the tenant names it',
      );

      const webhooks = opsRx[environment].received.map(
        (r) => JSON.parse(r.body.toString()) as { type: string; data: Record<string, unknown> },
      );
      assert.deepEqual(
        webhooks.map((w) => w.type),
        ['endpoint.degraded', 'deliveries.failed'],
      );
      assert.ok(
        webhooks.every((w) => w.data.environment === environment),
        'the operational webhook payload names it',
      );

      const notices = (await t.store.outbox.listNotices(id, null, 100)).items;
      assert.deepEqual(notices.map((n) => n.kind).sort(), ['deliveries.failed', 'endpoint.degraded']);
      assert.ok(
        notices.every((n) => n.environment === environment),
        'the notices name it',
      );
    }
  } finally {
    await notifier.close();
    await failing.close();
    await opsRx.test.close();
    await opsRx.live.close();
    await sink.close();
    await t.close();
  }
});
