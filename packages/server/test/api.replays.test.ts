// Deliveries, replays (docs/rules.md#replay), notices and breakers over real HTTP.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let ok = false;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;
let ep: string;

before(async () => {
  t = await startTestServer();
  // 400 until `ok`: the strict policy fails a 4xx at once, which makes dead letters quickly.
  receiver = await startReceiver(() => (ok ? 200 : 400));
  ten = await t.tenant();
  ep = (await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url, policy: 'strict' } })).body.id;
});
after(async () => {
  await receiver.close();
  await t.close();
});

async function failedDelivery(eventId: string): Promise<string> {
  const r = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { event_id: eventId, type: 'order.created', data: { id: eventId } },
  });
  const id = r.body.deliveries[0].id;
  await until(
    () => t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`),
    (d) => d.body.status === 'failed',
  );
  return id;
}

test('deliveries: list with filters and cursor; detail shows the failure, last response and attempts', async () => {
  const d1 = await failedDelivery('f1');
  const d2 = await failedDelivery('f2');
  const detail = await t.api('GET', `/v1/tenants/${ten}/deliveries/${d1}`);
  assert.equal(detail.body.status, 'failed');
  assert.ok(detail.body.terminal_reason);
  assert.equal(detail.body.attempts[0].response_status, 400);
  assert.equal(detail.body.attempts[0].outcome, 'client_error');
  assert.equal(detail.body.attempts[0].response_body_excerpt, 'nope');
  const failed = await t.api(
    'GET',
    `/v1/tenants/${ten}/deliveries?status=failed&endpoint_id=${ep}&event_type=order.created&limit=1`,
  );
  assert.equal(failed.body.items.length, 1);
  assert.equal(failed.body.items[0].id, d2, 'newest first');
  // The dead letter shows what the receiver answered (docs/rules.md#dead-letter), beside each delivery of the list.
  assert.deepEqual(failed.body.items[0].last_response, { status: 400, excerpt: 'nope', error: 'HTTP 400' });
  const next = await t.api(
    'GET',
    `/v1/tenants/${ten}/deliveries?status=failed&limit=1&cursor=${failed.body.next_cursor}`,
  );
  assert.equal(next.body.items[0].id, d1);
  const none = await t.api('GET', `/v1/tenants/${ten}/deliveries?since=2999-01-01T00:00:00Z`);
  assert.equal(none.body.items.length, 0);
  const until_ = await t.api(
    'GET',
    `/v1/tenants/${ten}/deliveries?until=${encodeURIComponent(new Date().toISOString())}`,
  );
  assert.ok(until_.body.items.length >= 2);
  const bad = await t.api('GET', `/v1/tenants/${ten}/deliveries?since=last-tuesday`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /since/);
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries?status=lost`)).status, 400);
  // event_id: the deliveries of that one event (the console's search by event id), combinable with the other filters.
  const byEvent = await t.api('GET', `/v1/tenants/${ten}/deliveries?event_id=f1`);
  assert.deepEqual(
    byEvent.body.items.map((d: { id: string }) => d.id),
    [d1],
  );
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries?event_id=f1&status=succeeded`)).body.items.length, 0);
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries?event_id=nope`)).body.items.length, 0);
  assert.equal(
    (await t.api('GET', `/v1/tenants/${ten}/deliveries?event_id=`)).status,
    400,
    'an empty event_id is refused',
  );
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries/dlv_nope`)).body.error.code, 'delivery_not_found');
});

test('replay one delivery: 202 with a replay id, one attempt with the same ids, progress readable', async () => {
  const id = await failedDelivery('r1');
  ok = true;
  try {
    const before = receiver.received.length;
    const r = await t.api('POST', `/v1/tenants/${ten}/deliveries/${id}/replay`);
    assert.equal(r.status, 202);
    assert.match(r.body.replay_id, /^rpl_/);
    const done = await until(
      () => t.api('GET', `/v1/tenants/${ten}/replays/${r.body.replay_id}`),
      (x) => x.body.done === true,
    );
    assert.deepEqual(
      [done.body.kind, done.body.selected, done.body.attempted, done.body.succeeded, done.body.failed],
      ['single', 1, 1, 1, 0],
    );
    const d = await t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`);
    assert.equal(d.body.status, 'succeeded');
    assert.equal(d.body.attempts.at(-1).trigger, 'replay');
    const sent = receiver.received.slice(before).find((x) => x.headers['x-webhook-delivery'] === id)!;
    assert.equal(sent.headers['x-webhook-id'], 'r1');
    // A succeeded delivery is not replayable.
    const again = await t.api('POST', `/v1/tenants/${ten}/deliveries/${id}/replay`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'delivery_not_replayable');
  } finally {
    ok = false;
  }
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/replays/rpl_nope`)).body.error.code, 'replay_not_found');
});

test('window replay: selects failed deliveries in [since, until]; paused endpoint → 409; 21st of the day → 429 with Retry-After', async () => {
  const id = await failedDelivery('w1');
  const bad = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, { body: { since: 'soon' } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.message, /since/);
  const inverted = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, {
    body: { since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' },
  });
  assert.equal(inverted.status, 400);
  // A replay that selects nothing is answered and uses none of the 20 daily replays (docs/rules.md#replay-quota).
  const empty = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, {
    body: { since: '2020-01-01T00:00:00Z', until: '2020-01-02T00:00:00Z' },
  });
  assert.equal(empty.status, 202);
  assert.equal(empty.body.replay.selected, 0);
  ok = true;
  let olderFailed = 0;
  try {
    // The window starts at w1's failed attempt: exactly w1 is selected; the endpoint's older failures stay out.
    const since = (await t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`)).body.last_attempt_at as string;
    const failed = (await t.api('GET', `/v1/tenants/${ten}/deliveries?status=failed&endpoint_id=${ep}&limit=100`)).body
      .items as Array<{ id: string; last_attempt_at: string }>;
    const older = failed.filter((d) => d.id !== id).map((d) => d.id);
    olderFailed = older.length;
    assert.ok(older.length > 0, 'earlier tests left failed deliveries attempted before the window');
    assert.ok(failed.every((d) => d.id === id || d.last_attempt_at < since));
    const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, {
      body: { since, until: new Date().toISOString() },
    });
    assert.equal(r.status, 202);
    assert.equal(r.body.replay.selected, 1);
    const done = await until(
      () => t.api('GET', `/v1/tenants/${ten}/replays/${r.body.replay_id}`),
      (x) => x.body.done === true,
    );
    assert.deepEqual([done.body.selected, done.body.attempted, done.body.succeeded, done.body.failed], [1, 1, 1, 0]);
    assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries/${id}`)).body.status, 'succeeded');
    for (const other of older)
      assert.equal(
        (await t.api('GET', `/v1/tenants/${ten}/deliveries/${other}`)).body.status,
        'failed',
        `${other} is outside the window`,
      );
  } finally {
    ok = false;
  }
  await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { status: 'paused' } });
  const paused = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, { body: {} });
  assert.equal(paused.status, 409);
  assert.equal(paused.body.error.code, 'endpoint_paused');
  assert.match(paused.body.error.message, /reactivate/);
  await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${ep}`, { body: { status: 'active' } });
  // 19 more replays that each select something (one new dead letter each: the earlier ones are failed again too,
  // and so are the older failures the first replay's window left out).
  for (let used = 1; used < 20; used++) {
    await failedDelivery(`q${used}`);
    const rp = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, { body: {} });
    assert.equal(rp.status, 202);
    assert.equal(rp.body.replay.selected, olderFailed + used, `replay ${used + 1}`);
    await until(
      () => t.api('GET', `/v1/tenants/${ten}/replays/${rp.body.replay_id}`),
      (x) => x.body.done === true,
    );
  }
  const over = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, { body: {} });
  const toMidnight = (86_400_000 - (Date.now() % 86_400_000)) / 1000;
  assert.equal(over.status, 429);
  assert.equal(over.body.error.code, 'replay_quota_exceeded');
  assert.match(over.body.error.message, /20/);
  const retryAfter = Number(over.headers.get('retry-after'));
  assert.ok(
    Math.abs(retryAfter - toMidnight) <= 5,
    `Retry-After ${retryAfter} s is the time to the next UTC midnight (${toMidnight} s)`,
  );
  const emptyAtQuota = await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/replays`, {
    body: { since: '2020-01-01T00:00:00Z', until: '2020-01-02T00:00:00Z' },
  });
  assert.deepEqual(
    [emptyAtQuota.status, emptyAtQuota.body.replay?.selected],
    [202, 0],
    'selecting nothing is answered even at the quota',
  );
});

test('notices: list newest first with cursor', async () => {
  const store = t.server.runtime.store;
  // A tenant of its own: the other tests' endpoints raise real notices (degraded, recovered) on theirs.
  const quiet = 'ten_NOTICES';
  await store.catalog.createTenant({
    id: quiet,
    name: 'Notices',
    ownerEmails: [],
    operationsEndpointId: null,
    notifyEmail: false,
    createdAt: Date.now(),
    updatedAt: Date.now(),
  });
  for (const n of [1, 2, 3]) {
    await store.outbox.addNotice({
      id: `ntc_0000000000000000000000000${n}`,
      tenantId: quiet,
      kind: 'endpoint.degraded',
      subjectId: ep,
      message: `notice ${n}`,
      data: { n },
      createdAt: Date.now(),
    });
  }
  const p1 = await t.api('GET', `/v1/tenants/${quiet}/notices?limit=2`);
  assert.equal(p1.status, 200);
  assert.deepEqual(
    p1.body.items.map((x: { message: string }) => x.message),
    ['notice 3', 'notice 2'],
  );
  assert.deepEqual(p1.body.items[0].data, { n: 3 });
  assert.equal(p1.body.items[0].resolved_at, null, 'an open incident: not resolved (docs/rules.md#notifications)');
  const p2 = await t.api('GET', `/v1/tenants/${quiet}/notices?limit=2&cursor=${p1.body.next_cursor}`);
  assert.deepEqual(
    p2.body.items.map((x: { message: string }) => x.message),
    ['notice 1'],
  );
  assert.equal(p2.body.next_cursor, null);
});

test('breakers: read tenant and endpoint breakers, reset them', async () => {
  const tb = await t.api('GET', `/v1/tenants/${ten}/breaker`);
  assert.equal(tb.status, 200);
  assert.equal(tb.body.breaker.state, 'closed');
  assert.equal(tb.body.breaker.scope, 'tenant');
  // Open it by hand in the store, then reset over the API.
  const now = Date.now();
  await t.server.runtime.store.breakers.saveBreaker(
    {
      scopeKey: `tenant:${ten}`,
      tenantId: ten,
      state: 'open',
      pauseMs: 300_000,
      openedAt: now,
      nextProbeAt: now + 300_000,
      probeDeliveryId: null,
      updatedAt: now,
    },
    null,
  );
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/breaker`)).body.breaker.state, 'open');
  const reset = await t.api('POST', `/v1/tenants/${ten}/breaker/reset`);
  assert.equal(reset.status, 200);
  assert.equal(reset.body.state, 'closed');
  const set = await t.api('POST', `/v1/tenants/${ten}/breaker`, { body: { state: 'closed' } });
  assert.equal(set.body.state, 'closed');
  assert.equal((await t.api('POST', `/v1/tenants/${ten}/breaker`, { body: { state: 'open' } })).status, 400);
  const eb = await t.api('GET', `/v1/tenants/${ten}/endpoints/${ep}/breaker`);
  assert.deepEqual([eb.body.scope, eb.body.state], ['endpoint', 'closed']);
  assert.equal((await t.api('POST', `/v1/tenants/${ten}/endpoints/${ep}/breaker/reset`)).body.state, 'closed');
  assert.equal(
    (await t.api('GET', `/v1/tenants/${ten}/endpoints/ep_nope/breaker`)).body.error.code,
    'endpoint_not_found',
  );
});
