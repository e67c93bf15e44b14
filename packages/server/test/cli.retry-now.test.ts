// `hookline deliveries retry` and `hookline endpoints retry` (docs/rules.md#retry-now) against a real server on a frozen
// VirtualClock: a pending delivery's next rung never comes by itself, so only the retry sends it again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, until } from './server-harness.ts';

test('deliveries retry sends a pending delivery now; endpoints retry counts what moved; a finished one says replay', async (t) => {
  const srv = await startTestServer({ clock: new VirtualClock(Date.UTC(2026, 0, 5, 12)) });
  let failing = true;
  const rx = await startReceiver(() => (failing ? 503 : 200));
  t.after(async () => {
    await srv.close();
    await rx.close();
  });
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const tenant = await srv.tenant();
  const cli = async (...args: string[]) => runMain([...args, '--tenant', tenant], env);
  const ep = json(await cli('endpoints', 'add', rx.url, '--json')).id as string;
  const ids: string[] = [];
  for (const id of ['c1', 'c2']) {
    const r = await srv.api('POST', `/v1/tenants/${tenant}/events`, {
      body: { event_id: id, type: 'order.created', data: {} },
    });
    ids.push(r.body.deliveries[0].id);
  }
  const pending = (id: string) =>
    until(
      () => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`),
      (d) => d.body.attempts.length === 1 && d.body.status === 'pending',
    );
  for (const id of ids) await pending(id);
  failing = false;

  const one = await cli('deliveries', 'retry', ids[0]!);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, new RegExp(`retrying ${ids[0]} now: attempt 2, on its fast ladder`));
  await until(
    () => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${ids[0]}`),
    (d) => d.body.status === 'succeeded',
  );
  const finished = await cli('deliveries', 'retry', ids[0]!);
  assert.equal(finished.code, 4, 'refused by the server');
  assert.match(finished.stderr, /succeeded.*replay/);

  const all = await cli('endpoints', 'retry', ep);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, new RegExp(`1 pending delivery of ${ep} due now`));
  await until(
    () => srv.api('GET', `/v1/tenants/${tenant}/deliveries/${ids[1]}`),
    (d) => d.body.status === 'succeeded',
  );
  assert.deepEqual(json(await cli('endpoints', 'retry', ep, '--json')), { moved: 0 });
  assert.equal((await cli('deliveries', 'retry')).code, 2, 'the delivery id is required');
});
