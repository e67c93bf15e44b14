import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../clock.ts';
import { silentLogger } from '../logger.ts';
import { PolicyRegistry } from '../policy/registry.ts';
import type { Store } from '../store/store.ts';
import { Maintenance } from './runner.ts';

function fakeStore(calls: string[]): Store {
  const log = (name: string) => async () => {
    calls.push(name);
    return name.startsWith('list') ? [] : 0;
  };
  return {
    breakers: { listEndpointsFailingSince: log('listEndpointsFailingSince') },
    retention: {
      purgeDeliveries: log('purgeDeliveries'),
      purgeEvents: log('purgeEvents'),
      purgeDeliveryMinutes: log('purgeDeliveryMinutes'),
      purgeTenantUsage: log('purgeTenantUsage'),
      purgeBreakerWindow: log('purgeBreakerWindow'),
      purgeOutbox: log('purgeOutbox'),
      purgePortalLinks: log('purgePortalLinks'),
      purgeIdempotencyKeys: log('purgeIdempotencyKeys'),
    },
    audit: { purgeAudit: log('purgeAudit') },
    egress: { listExpiringCertificates: log('listExpiringCertificates') },
  } as unknown as Store;
}

test('one pass sweeps health then purges; concurrent calls share the pass in flight', async () => {
  const calls: string[] = [];
  const clock = new VirtualClock();
  const m = new Maintenance({ store: fakeStore(calls), clock, policies: new PolicyRegistry(), logger: silentLogger });
  const [a, b] = await Promise.all([m.runOnce(), m.runOnce()]);
  assert.equal(a, b);
  assert.deepEqual(calls, [
    'listEndpointsFailingSince',
    'purgeDeliveries',
    'purgeEvents',
    'purgeDeliveryMinutes',
    'purgeTenantUsage',
    'purgeBreakerWindow',
    'purgeOutbox',
    'purgePortalLinks',
    'purgeAudit',
    'purgeIdempotencyKeys',
    'listExpiringCertificates',
  ]);
  assert.deepEqual(a.purged, {
    deliveries: 0,
    events: 0,
    deliveryMinutes: 0,
    tenantUsage: 0,
    breakerWindow: 0,
    outbox: 0,
    portalLinks: 0,
    audit: 0,
    idempotencyKeys: 0,
  });
  m.start();
  await m.stop();
});
