// GET /v1/policies and POST /v1/simulate (the console's policy preview): the engine's simulated timeline over HTTP,
// the same as `hookline simulate --responses` prints; bounded, validated input with catalog error codes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let key: string;

before(async () => {
  t = await startTestServer();
  const ten = await t.tenant();
  key = (await t.api('POST', `/v1/tenants/${ten}/api-keys`, { body: { name: 'preview' } })).body.key;
});
after(() => t.close());

test('GET /v1/policies lists the presets with their rules, to an admin and to a tenant key', async () => {
  for (const token of [undefined, key]) {
    const r = await t.api('GET', '/v1/policies', token ? { token } : {});
    assert.equal(r.status, 200);
    const names = r.body.items.map((p: { name: string }) => p.name);
    assert.deepEqual(names, ['payments', 'standard', 'brief', 'strict']);
    const brief = r.body.items.find((p: { name: string }) => p.name === 'brief');
    assert.equal(brief.preset, true);
    assert.match(brief.description, /fast ladder: 4 attempts/);
  }
  assert.equal((await t.api('GET', '/v1/policies', { token: null })).status, 401);
});

test('POST /v1/simulate: brief against 500,500,200 retries twice on the fast ladder and succeeds at +5 min 30 s', async () => {
  const r = await t.api('POST', '/v1/simulate', {
    token: key,
    body: { policy: 'brief', responses: [500, '500', 200] },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(
    r.body.attempts.map((a: { n: number; response: string; outcome: string; ladder: string }) => [
      a.n,
      a.response,
      a.outcome,
      a.ladder,
    ]),
    [
      [1, '500', 'delivery_failure', 'fast'],
      [2, '500', 'delivery_failure', 'fast'],
      [3, '200', 'success', 'fast'],
    ],
  );
  assert.equal(r.body.attempts[0].at_ms, 0);
  assert.equal(r.body.attempts[0].next.status, 'pending');
  assert.equal(r.body.attempts[0].next.at_ms, r.body.attempts[1].at_ms, 'the next attempt runs when it was scheduled');
  assert.equal(r.body.final.status, 'succeeded');
  assert.equal(r.body.final.reason, null);
  assert.equal(r.body.seed, 1, 'the default seed');
  // The same seed gives the same timeline; the attempt times are those of the brief ladder (jitter-free: brief has none).
  const again = await t.api('POST', '/v1/simulate', { body: { policy: 'brief', responses: [500, 500, 200], seed: 1 } });
  assert.deepEqual(again.body.attempts, r.body.attempts);
  assert.deepEqual(
    r.body.attempts.map((a: { at_ms: number }) => a.at_ms),
    [0, 30_000, 330_000],
  );
});

test('POST /v1/simulate: a failing script ends failed with the reason; payments marks money events', async () => {
  const r = await t.api('POST', '/v1/simulate', { body: { policy: 'strict', responses: ['404'] } });
  assert.equal(r.status, 200);
  assert.equal(r.body.final.status, 'failed');
  assert.match(r.body.final.reason, /\S/);
  assert.equal(r.body.attempts.at(-1).next.status, 'failed');
  const money = await t.api('POST', '/v1/simulate', {
    body: { policy: 'payments', type: 'payment.status_changed', data: { status: 'paid' }, responses: [200] },
  });
  assert.equal(money.status, 200, JSON.stringify(money.body));
  assert.equal(money.body.is_money, true);
  assert.equal(money.body.final.status, 'succeeded');
});

test('POST /v1/simulate refuses bad input with catalog codes, never a 500', async () => {
  const cases: Array<[unknown, number, string]> = [
    [{ policy: 'nope', responses: [200] }, 400, 'unknown_policy'],
    [{ policy: 'brief', responses: [] }, 400, 'invalid_request'],
    [{ policy: 'brief', responses: ['teapot'] }, 400, 'invalid_request'],
    [{ policy: 'brief', responses: [99] }, 400, 'invalid_request'],
    [{ policy: 'brief', responses: Array(51).fill(500) }, 400, 'invalid_request'],
    [{ policy: 'brief' }, 400, 'invalid_request'],
    [{ policy: 'brief', responses: [200], seed: -1 }, 400, 'invalid_request'],
    [{ policy: 'brief', responses: [200], colour: 'red' }, 400, 'invalid_request'],
  ];
  for (const [body, status, code] of cases) {
    const r = await t.api('POST', '/v1/simulate', { body });
    assert.deepEqual([r.status, r.body.error?.code], [status, code], JSON.stringify(body));
  }
  const teapot = await t.api('POST', '/v1/simulate', { body: { policy: 'brief', responses: [500, 'teapot'] } });
  assert.match(teapot.body.error.message, /responses\/1/);
  assert.equal(
    (await t.api('POST', '/v1/simulate', { token: null, body: { policy: 'brief', responses: [200] } })).status,
    401,
  );
});
