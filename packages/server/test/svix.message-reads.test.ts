// The Svix-compatible API's message reads (docs/svix-compatibility.md#messages) over HTTP: a message's endpoints, its
// attempts (all, or one endpoint's, or one by id), an endpoint's attempts and messages; a delivery on the wire reads
// `sending` in each of them; a message's payload is what it was accepted as, even when it looks like an envelope.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReceiver, startTestServer, until, within } from './server-harness.ts';

const SENDING = 3;
const SUCCESS = 0;

test('message reads: endpoints, attempts by message and by endpoint, an endpoint’s messages, in flight and after', async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const fast = await startReceiver(() => 200);
  const slow = await startReceiver(async () => {
    await held;
    return 200;
  });
  t.after(async () => {
    release();
    await fast.close();
    await slow.close();
  });

  assert.equal((await s.api('POST', '/api/v1/app', { body: { name: 'Reads', uid: 'reads' } })).status, 201);
  const epFast = (await s.api('POST', '/api/v1/app/reads/endpoint', { body: { url: fast.url } })).body.id as string;
  const epSlow = (await s.api('POST', '/api/v1/app/reads/endpoint', { body: { url: slow.url } })).body.id as string;
  // A raw payload shaped like Hookline's envelope of this very message: it is still the payload.
  const payload = { event_id: 'look-1', type: 'look.alike', occurred_at: '2026-01-01T00:00:00Z', data: { inner: 1 } };
  const sent = await s.api('POST', '/api/v1/app/reads/msg', {
    body: { eventType: 'look.alike', eventId: 'look-1', payload },
  });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  const msgId = sent.body.id as string;
  assert.deepEqual(sent.body.payload, payload);
  assert.deepEqual((await s.api('GET', '/api/v1/app/reads/msg/look-1')).body.payload, payload);

  // The fast endpoint answered; the slow one's attempt is on the wire.
  await within('the fast delivery', 20_000, fast.waitFor(1));
  await until(
    async () => slow.received.length,
    (n) => n === 1,
  );
  const destinations = await until(
    () => s.api('GET', `/api/v1/app/reads/msg/${msgId}/endpoint`),
    (r) => r.body.data?.find((d: { id: string }) => d.id === epFast)?.status === SUCCESS,
  );
  assert.deepEqual(
    destinations.body.data.map((d: { id: string; url: string; status: number }) => [d.id, d.url, d.status]).sort(),
    [
      [epFast, fast.url, SUCCESS],
      [epSlow, slow.url, SENDING],
    ].sort(),
  );
  const onSlow = await s.api('GET', `/api/v1/app/reads/endpoint/${epSlow}/msg`);
  assert.deepEqual(
    onSlow.body.data.map((m: { id: string; status: number; payload: unknown }) => [m.id, m.status, m.payload]),
    [[msgId, SENDING, payload]],
  );
  assert.deepEqual((await s.api('GET', `/api/v1/app/reads/attempt/endpoint/${epSlow}`)).body.data, []);

  release();
  const attempts = await until(
    () => s.api('GET', `/api/v1/app/reads/attempt/msg/${msgId}`),
    (r) => r.body.data?.length === 2,
  );
  assert.deepEqual(
    attempts.body.data
      .map((a: { endpointId: string; url: string; msgId: string; status: number }) => [
        a.endpointId,
        a.url,
        a.msgId,
        a.status,
      ])
      .sort(),
    [
      [epFast, fast.url, msgId, SUCCESS],
      [epSlow, slow.url, msgId, SUCCESS],
    ].sort(),
  );
  const onlySlow = await s.api('GET', `/api/v1/app/reads/attempt/msg/${msgId}?endpoint_id=${epSlow}`);
  assert.deepEqual(
    onlySlow.body.data.map((a: { endpointId: string }) => a.endpointId),
    [epSlow],
  );
  const byEndpoint = await s.api('GET', `/api/v1/app/reads/attempt/endpoint/${epFast}`);
  assert.deepEqual(
    byEndpoint.body.data.map((a: { msgId: string; url: string; responseStatusCode: number }) => [
      a.msgId,
      a.url,
      a.responseStatusCode,
    ]),
    [[msgId, fast.url, 200]],
  );
  const one = byEndpoint.body.data[0].id as string;
  assert.equal((await s.api('GET', `/api/v1/app/reads/msg/${msgId}/attempt/${one}`)).body.id, one);
  assert.equal((await s.api('GET', `/api/v1/app/reads/msg/${msgId}/attempt/att_none`)).status, 404);
  const onFast = await s.api('GET', `/api/v1/app/reads/endpoint/${epFast}/msg?with_content=false`);
  assert.deepEqual(
    onFast.body.data.map((m: { id: string; status: number; payload: unknown }) => [m.id, m.status, m.payload]),
    [[msgId, SUCCESS, {}]],
  );
  assert.equal((await s.api('GET', '/api/v1/app/reads/msg/no-such/endpoint')).status, 404);
});

test("message reads: a /v1 tenant's message is sent in the envelope and read back as its payload", async (t) => {
  const s = await startTestServer();
  t.after(() => s.close());
  const tenantId = await s.tenant();
  const sent = await s.api('POST', `/api/v1/app/${tenantId}/msg`, { body: { eventType: 'a.b', payload: { a: 1 } } });
  assert.equal(sent.status, 202, JSON.stringify(sent.body));
  assert.deepEqual((await s.api('GET', `/api/v1/app/${tenantId}/msg/${sent.body.id}`)).body.payload, { a: 1 });
});
