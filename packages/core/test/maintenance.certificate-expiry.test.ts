// The certificate-expiry notice on the virtual clock (docs/rules.md#client-certificate): one notice 14 days before
// an endpoint's client certificate expires, none before that, none again, and a new certificate starts over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, testEngine } from '../testing/index.ts';

test('a client certificate is told once, 14 days before it expires; a new certificate starts over', async (t) => {
  const { engine, clock, store, tenantId, close } = await testEngine();
  t.after(close);
  const { endpoint } = await engine.endpoints.create(tenantId, { url: 'https://hooks.example.com/in' });
  const now = clock.now();
  const row = (expiresAt: number) => ({
    endpointId: endpoint.id,
    proxy: null,
    certificate: { pem: 'pem', keySealed: 'sealed', subject: 'CN=hookline', expiresAt, notifiedAt: null },
    oauth2: null,
    updatedAt: clock.now(),
  });
  await store.egress.setEndpointEgress(endpoint.id, row(now + 30 * DAY), now);
  const notices = async () => (await engine.notices.list(tenantId, null, 50)).items;

  clock.advance(16 * DAY - 1); // 14 days and 1 ms before the expiry
  assert.equal((await engine.maintenance.run()).certificateNotices, 0);
  clock.advance(2);
  assert.equal((await engine.maintenance.run()).certificateNotices, 1);
  assert.equal((await engine.maintenance.run()).certificateNotices, 0, 'once');
  const [n] = await notices();
  assert.equal(n.kind, 'endpoint.certificate_expiring');
  assert.equal(n.subjectId, endpoint.id);
  assert.deepEqual(n.data, {
    endpoint_id: endpoint.id,
    subject: 'CN=hookline',
    expires_at: new Date(now + 30 * DAY).toISOString(),
  });

  // A new certificate, also within 14 days: told again, once.
  await store.egress.setEndpointEgress(endpoint.id, row(clock.now() + 10 * DAY), clock.now());
  assert.equal((await engine.maintenance.run()).certificateNotices, 1);
  assert.equal((await notices()).length, 2);
});
