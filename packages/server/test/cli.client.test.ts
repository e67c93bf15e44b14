// The client commands through the real executable, against a real server in this process (temp SQLite, port 0).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttemptEvent } from '@hookline/core';
import { main } from '../src/cli/main.ts';
import { json, runCli, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startReceiver, startTestServer, within } from './server-harness.ts';

/** A loopback receiver: 400 for `order.bad` until `fixed`, 200 otherwise. */
async function startBadOrderReceiver() {
  const state = { fixed: false };
  const rx = await startReceiver((_n, req) => {
    const type = (JSON.parse(req.body.toString()) as { type: string }).type;
    return { status: type === 'order.bad' && !state.fixed ? 400 : 200, body: 'ok' };
  });
  return Object.assign(rx, { state });
}

test('tenants, endpoints, send, deliveries, replay, tail and breaker against a live server, with exit codes', async () => {
  const srv = await startTestServer();
  const rx = await startBadOrderReceiver();
  // Resolves when the server has recorded an attempt of the delivery: tests wait on events, not sleeps.
  const recorded = new Map<string, Array<(e: AttemptEvent) => void>>();
  srv.server.runtime.addObserver({
    attempt: (e) => {
      for (const f of recorded.get(e.attempt.deliveryId)?.splice(0) ?? []) f(e);
    },
  });
  const attemptOf = (deliveryId: string) =>
    within(
      `an attempt of ${deliveryId} to be recorded`,
      30_000,
      new Promise<AttemptEvent>((resolve) => recorded.set(deliveryId, [...(recorded.get(deliveryId) ?? []), resolve])),
    );
  const env = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  // The main flow runs the real executable; the many smaller checks run the same main() in this process.
  const cli = (...args: string[]) => runCli(args, env);
  const inProcess = (...args: string[]) => runMain(args, env);
  const expectOk = (args: string[]) => (r: Awaited<ReturnType<typeof cli>>) => {
    assert.equal(r.code, 0, `hookline ${args.join(' ')} → ${r.code}\n${r.stderr}`);
    return r;
  };
  const ok = async (...args: string[]) => expectOk(args)(await cli(...args));
  const okHere = async (...args: string[]) => expectOk(args)(await inProcess(...args));
  try {
    const tenant = json(await ok('tenants', 'create', '--name', 'Cli Co', '--owner-email', 'ops@cli.test', '--json'))
      .id as string;
    assert.match(tenant, /^ten_/);
    const t = ['--tenant', tenant];
    const ep = json(
      await ok('endpoints', 'add', rx.url, ...t, '--policy', 'strict', '--description', 'orders', '--json'),
    );
    assert.match(ep.id, /^ep_/);
    assert.match(ep.secret, /^whsec_/);
    const list = await okHere('endpoints', 'list', ...t);
    assert.match(list.stdout, new RegExp(`${ep.id}\\s+active\\s+strict`));

    // A good event is delivered.
    const sent = json(
      await ok('send', ...t, '--type', 'order.created', '--data', '{"n":1}', '--event-id', 'o-1', '--json'),
    );
    assert.equal(sent.deliveries.length, 1);
    const good = sent.deliveries[0].id as string;
    await srv.server.runtime.engine.deliveries
      .find(tenant, good)
      .then((d) => (d?.status === 'succeeded' ? null : attemptOf(good)));

    // A bad one: strict makes a 400 permanent, so it is failed at once — the dead letter.
    const bad = json(await ok('send', ...t, '--type', 'order.bad', '--data', '{"n":2}', '--json')).deliveries[0]
      .id as string;
    await srv.server.runtime.engine.deliveries
      .find(tenant, bad)
      .then((d) => (d?.status === 'failed' ? null : attemptOf(bad)));
    const all = json(await ok('deliveries', 'list', ...t, '--json'));
    assert.deepEqual(
      all.items.map((d: { id: string; status: string }) => [d.id, d.status]),
      [
        [bad, 'failed'],
        [good, 'succeeded'],
      ],
    );
    const failed = json(await okHere('deliveries', 'list', ...t, '--status', 'failed', '--json'));
    assert.deepEqual(
      failed.items.map((d: { id: string }) => d.id),
      [bad],
    );
    const table = await okHere('deliveries', 'list', ...t, '--status', 'failed');
    assert.match(table.stdout, new RegExp(`${bad}\\s+failed\\s+\\S+\\s+order\\.bad`));
    assert.match(table.stdout, /LAST RESPONSE/);
    assert.match(table.stdout, /\b400 ok\b/, "the dead letter shows the receiver's answer");

    // The receiver is fixed; replaying the dead letter delivers it, same ids.
    rx.state.fixed = true;
    const replayed = json(await ok('replay', bad, ...t, '--wait', '--json'));
    assert.deepEqual([replayed.selected, replayed.attempted, replayed.succeeded, replayed.failed], [1, 1, 1, 0]);
    const shown = json(await okHere('deliveries', 'show', bad, ...t, '--json'));
    assert.equal(shown.status, 'succeeded');
    assert.deepEqual(
      shown.attempts.map((a: { trigger: string; response_status: number }) => [a.trigger, a.response_status]),
      [
        ['scheduled', 400],
        ['replay', 200],
      ],
    );
    const human = await okHere('deliveries', 'show', bad, ...t);
    assert.match(human.stdout, /2\s+\S+ \S+\s+replay\s+fast\s+-\s+200\s+success/);

    // tail prints each new attempt once its baseline is taken.
    let baseline!: () => void;
    const following = new Promise<void>((r) => (baseline = r));
    let tailOut = '';
    const tailDone = main(['tail', ...t, '--count', '1', '--interval', '200ms'], env, {
      stdout: { write: (c: string) => void (tailOut += c) },
      stderr: { write: (c: string) => void (/following attempts/.test(c) && baseline()) },
    });
    await within('tail to take its baseline', 30_000, following);
    const third = json(await okHere('send', ...t, '--type', 'order.created', '--data', '{"n":3}', '--json'))
      .deliveries[0].id as string;
    assert.equal(await within('tail to print the new attempt and exit', 30_000, tailDone), 0);
    assert.match(
      tailOut,
      new RegExp(`^\\S+ \\S+\\s+${third}\\s+\\S+ order\\.created\\s+#1 scheduled\\s+200\\s+success`),
    );

    // Exit codes: not found 3, conflict / refused 4, and 0 for the rest.
    const [missing, conflict, badToken, testRun, breaker] = await Promise.all([
      cli('deliveries', 'show', 'dlv_00000000000000000000000000', ...t),
      cli('send', ...t, '--type', 'order.created', '--data', '{"n":999}', '--event-id', 'o-1'),
      runMain(['tenants', 'list'], { ...env, HOOKLINE_TOKEN: 'not-a-real-token-at-all' }),
      inProcess('endpoints', 'test', ep.id, ...t),
      inProcess('breaker', 'reset', ...t),
    ]);
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /^hookline: unknown delivery \(delivery_not_found, HTTP 404\)\n$/);
    assert.equal(conflict.code, 4, conflict.stderr);
    assert.match(conflict.stderr, /event_conflict/);
    assert.equal(badToken.code, 4, badToken.stderr);
    assert.equal(testRun.code, 0, testRun.stderr);
    assert.match(testRun.stdout, /test delivery: 200 → success/);
    assert.equal(breaker.code, 0, breaker.stderr);
    assert.match(breaker.stdout, /is closed/);

    // A window replay on a paused endpoint is refused (409 → 4); resumed, it selects nothing that succeeded.
    await okHere('endpoints', 'pause', ep.id, ...t);
    const refused = await inProcess('replay', '--endpoint', ep.id, ...t);
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /endpoint_paused/);
    await okHere('endpoints', 'resume', ep.id, ...t);
    const windowed = json(await okHere('replay', '--endpoint', ep.id, '--since', '1h', ...t, '--wait', '--json'));
    assert.equal(windowed.selected, 0);

    await okHere('endpoints', 'delete', ep.id, ...t);
    const gone = await inProcess('endpoints', 'show', ep.id, ...t);
    assert.equal(gone.code, 3);
    await okHere('tenants', 'delete', tenant);
  } finally {
    await rx.close();
    await srv.close();
  }
});
