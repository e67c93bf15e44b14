// Store conformance, endpoint egress: an endpoint's proxy choice, client certificate and OAuth2 client round-trip
// (sealed values as given), every change moves the endpoint's version, and the certificate-expiry notice is marked
// once per certificate (docs/rules.md#client-certificate).
import assert from 'node:assert/strict';
import type { EndpointEgress } from '../../src/store/store.ts';
import { DAY, endpoint, secret, T0, tenant, type WithStore } from './fixtures.ts';

const egress = (over: Partial<EndpointEgress> = {}): EndpointEgress => ({
  endpointId: 'ep_1',
  proxy: 'eu',
  certificate: {
    pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
    keySealed: 'sealed-key',
    subject: 'CN=hookline',
    expiresAt: T0 + 30 * DAY,
    notifiedAt: null,
  },
  oauth2: {
    tokenUrl: 'https://auth.example/token',
    clientId: 'hookline',
    scope: 'webhooks',
    audience: null,
    secretSealed: 'sealed-secret',
  },
  updatedAt: T0,
  ...over,
});

export function endpointEgressConformance(withStore: WithStore): void {
  withStore('egress settings round-trip, move the endpoint version, and go with the endpoint', async (store) => {
    await store.catalog.createTenant(tenant('ten_A'));
    await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
    assert.equal(await store.egress.getEndpointEgress('ep_1'), null);
    const v0 = (await store.catalog.getEndpoint('ten_A', 'ep_1'))!.version;
    assert.equal(await store.egress.setEndpointEgress('ep_1', egress(), T0 + 1), true);
    assert.deepEqual(await store.egress.getEndpointEgress('ep_1'), egress());
    assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))!.version, v0 + 1, 'workers reload on the version');

    const direct = egress({ proxy: 'none', certificate: null, oauth2: null, updatedAt: T0 + 2 });
    await store.egress.setEndpointEgress('ep_1', direct, T0 + 2);
    assert.deepEqual(await store.egress.getEndpointEgress('ep_1'), direct);
    await store.egress.setEndpointEgress('ep_1', egress({ proxy: null, certificate: null, oauth2: null }), T0 + 3);
    assert.equal(await store.egress.getEndpointEgress('ep_1'), null, 'nothing set: no row');
    assert.equal((await store.catalog.getEndpoint('ten_A', 'ep_1'))!.version, v0 + 3);
    assert.equal(await store.egress.setEndpointEgress('ep_missing', egress({ endpointId: 'ep_missing' }), T0), false);

    await store.egress.setEndpointEgress('ep_1', egress(), T0 + 4);
    assert.equal(await store.catalog.deleteEndpoint('ten_A', 'ep_1'), true);
    assert.equal(await store.egress.getEndpointEgress('ep_1'), null, 'deleted with its endpoint');
  });

  withStore(
    'expiring certificates: soonest first, before the bound, each marked once per certificate',
    async (store) => {
      await store.catalog.createTenant(tenant('ten_A'));
      for (const [id, days] of [
        ['ep_1', 20],
        ['ep_2', 10],
        ['ep_3', 5],
      ] as const) {
        await store.catalog.createEndpoint(endpoint(id, 'ten_A'), secret(`sec_${id}`, id));
        const e = egress({ endpointId: id, proxy: null, oauth2: null });
        await store.egress.setEndpointEgress(
          id,
          { ...e, certificate: { ...e.certificate!, expiresAt: T0 + days * DAY } },
          T0,
        );
      }
      const due = await store.egress.listExpiringCertificates(T0 + 14 * DAY, 10);
      assert.deepEqual(
        due.map((c) => [c.endpointId, c.tenantId, c.subject, c.expiresAt]),
        [
          ['ep_3', 'ten_A', 'CN=hookline', T0 + 5 * DAY],
          ['ep_2', 'ten_A', 'CN=hookline', T0 + 10 * DAY],
        ],
      );
      assert.equal((await store.egress.listExpiringCertificates(T0 + 14 * DAY, 1)).length, 1);
      const notice = (id: string, endpointId: string, at: number) => ({
        id,
        tenantId: 'ten_A',
        kind: 'endpoint.certificate_expiring',
        subjectId: endpointId,
        message: 'expires soon',
        data: { endpoint_id: endpointId },
        createdAt: at,
      });
      assert.equal(
        await store.egress.markCertificateNotified('ep_3', T0 + 5 * DAY, notice('ntc_1', 'ep_3', T0 + 1)),
        true,
      );
      assert.equal(
        await store.egress.markCertificateNotified('ep_3', T0 + 5 * DAY, notice('ntc_2', 'ep_3', T0 + 2)),
        false,
      );
      assert.equal(
        await store.egress.markCertificateNotified('ep_2', T0 + 99 * DAY, notice('ntc_3', 'ep_2', T0 + 1)),
        false,
      );
      assert.deepEqual(
        (await store.outbox.listNotices('ten_A', null, 10)).items.map((n) => [n.id, n.kind, n.subjectId, n.createdAt]),
        [['ntc_1', 'endpoint.certificate_expiring', 'ep_3', T0 + 1]],
        'the notice is written with its mark, once, and only for the certificate it names',
      );
      assert.deepEqual(
        (await store.egress.listExpiringCertificates(T0 + 14 * DAY, 10)).map((c) => c.endpointId),
        ['ep_2'],
      );
      assert.equal((await store.egress.getEndpointEgress('ep_3'))!.certificate!.notifiedAt, T0 + 1);
    },
  );
}
