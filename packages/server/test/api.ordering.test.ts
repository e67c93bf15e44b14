// Ordered delivery through the HTTP API and the CLI (docs/rules.md#ordered-delivery), against a real server and a
// loopback receiver: ordering_key on events, ordering/on_failure on endpoints, a blocked key, dismiss, bad input.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, until } from './server-harness.ts';

test('an ordered endpoint with on_failure block: a permanently failed head holds its key until dismissed; bad keys are 400s naming the field', async (t) => {
  const srv = await startTestServer();
  // strict makes a 400 permanent: the key's first event fails at once, the rest must wait behind it.
  const rx = await startReceiver((_n, req) =>
    (JSON.parse(req.body.toString()) as { event_id: string }).event_id === 'pay-1-a' ? 400 : 200,
  );
  const arrivals = () => rx.received.map((r) => (JSON.parse(r.body.toString()) as { event_id: string }).event_id);
  t.after(async () => {
    await srv.close();
    await rx.close();
  });
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const tenant = await srv.tenant();
  const cli = async (...args: string[]) => runMain([...args, '--tenant', tenant], env);

  const added = await cli(
    'endpoints',
    'add',
    rx.url,
    '--policy',
    'strict',
    '--ordering',
    'key',
    '--on-failure',
    'block',
    '--json',
  );
  assert.equal(added.code, 0, added.stderr);
  const ep = json(added);
  assert.deepEqual([ep.ordering, ep.on_failure], ['key', 'block']);
  const shown = await cli('endpoints', 'show', ep.id);
  assert.match(shown.stdout, /ordering:\s+key \(on failure: block\)/);
  assert.equal((await cli('endpoints', 'add', 'http://127.0.0.1:9/x', '--ordering', 'fifo')).code, 2);

  const send = async (id: string, key?: string) => {
    const r = await cli(
      'send',
      '--type',
      'payment.updated',
      '--data',
      '{}',
      '--event-id',
      id,
      ...(key ? ['--ordering-key', key] : []),
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    return json(r);
  };
  const a1 = await send('pay-1-a', 'pay_1');
  assert.equal(a1.event.ordering_key, 'pay_1');
  assert.deepEqual([a1.deliveries[0].ordering_key, a1.deliveries[0].ordering_seq], ['pay_1', 1]);
  const head = a1.deliveries[0].id as string;
  const delivery = (id: string) => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`).then((r) => r.body);
  await until(
    () => delivery(head),
    (d) => d.status === 'failed',
  );
  const a2 = await send('pay-1-b', 'pay_1');
  const b1 = await send('pay-2-a', 'pay_2');
  const loose = await send('loose-1');
  const second = a2.deliveries[0].id as string;
  await until(
    () => delivery(b1.deliveries[0].id),
    (d) => d.status === 'succeeded',
  );
  await until(
    () => delivery(loose.deliveries[0].id),
    (d) => d.status === 'succeeded',
  );
  const waiting = await delivery(second);
  assert.deepEqual(
    [waiting.status, waiting.attempts.length, waiting.ordering_seq],
    ['pending', 0, 2],
    'held behind the failed head',
  );

  // Dismiss: refused for anything but the failed head (exit 4, one line), then the key goes on.
  const refused = await cli('deliveries', 'dismiss', second);
  assert.equal(refused.code, 4);
  assert.match(refused.stderr, /^hookline: delivery is pending; only a failed delivery holding its ordering key/);
  assert.equal(refused.stderr.trim().split('\n').length, 1);
  const viaApi = await srv.api('POST', `/v1/tenants/${tenant}/deliveries/${loose.deliveries[0].id}/dismiss`);
  assert.deepEqual([viaApi.status, viaApi.body.error.code], [409, 'delivery_not_dismissable']);
  const dismissed = await cli('deliveries', 'dismiss', head);
  assert.equal(dismissed.code, 0, dismissed.stderr);
  assert.match(dismissed.stdout, new RegExp(`dismissed ${head}: it stays failed; later deliveries of key pay_1 go on`));
  await until(
    () => delivery(second),
    (d) => d.status === 'succeeded',
  );
  const after = await delivery(head);
  assert.equal(after.status, 'failed');
  assert.ok(after.dismissed_at);
  assert.ok(arrivals().indexOf('pay-1-b') > arrivals().indexOf('pay-1-a'));
  const human = await cli('deliveries', 'show', head);
  assert.match(human.stdout, /ordering key:\s+pay_1 \(#1\), dismissed/);

  // Bad keys: over 256 bytes (the field is named), control characters, and in a batch only that item.
  const long = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { type: 'a.b', data: {}, ordering_key: 'é'.repeat(129) },
  });
  assert.deepEqual([long.status, long.body.error.code], [400, 'ordering_key_too_long']);
  assert.match(long.body.error.message, /ordering_key must be at most 256 bytes/);
  const control = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { type: 'a.b', data: {}, ordering_key: 'a\nb' },
  });
  assert.equal(control.status, 400);
  assert.equal(control.body.error.details[0].path, '/ordering_key');
  const batch = await srv.api('POST', `/v1/tenants/${tenant}/events/batch`, {
    body: {
      events: [
        { type: 'a.b', data: {}, ordering_key: 'k' },
        { type: 'a.b', data: {}, ordering_key: 'x'.repeat(300) },
      ],
    },
  });
  assert.equal(batch.status, 202);
  assert.deepEqual(
    batch.body.results.map((r: { ok: boolean; error?: { code: string } }) => r.ok || r.error?.code),
    [true, 'ordering_key_too_long'],
  );
  // PATCH switches the policy for the failed head's key at once.
  const patched = await srv.api('PATCH', `/v1/tenants/${tenant}/endpoints/${ep.id}`, {
    body: { on_failure: 'continue' },
  });
  assert.deepEqual([patched.status, patched.body.on_failure, patched.body.ordering], [200, 'continue', 'key']);
});
