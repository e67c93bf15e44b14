import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSecretBox, generateMasterKey } from '../secret-box.ts';
import type { EndpointEgress } from '../store/store.ts';
import { clientKeyAad, EgressCache, oauth2SecretAad } from './egress-cache.ts';

const box = createSecretBox(generateMasterKey());

function cacheOver(row: EndpointEgress) {
  let reads = 0;
  const cache = new EgressCache(
    {
      getEndpointEgress: async () => {
        reads++;
        return row;
      },
    },
    box,
  );
  return { cache, reads: () => reads };
}

const row = (keySealed: string, secretSealed: string): EndpointEgress => ({
  endpointId: 'ep_1',
  proxy: 'none',
  certificate: { pem: 'PEM', keySealed, subject: 'CN=a', expiresAt: 0, notifiedAt: null },
  oauth2: { tokenUrl: 'https://auth.example/token', clientId: 'c', secretSealed, scope: null, audience: null },
  updatedAt: 0,
});

test('sealed values open only for their endpoint and purpose; the settings are named by endpoint and version', async () => {
  const good = row(box.seal('KEY', clientKeyAad('ep_1')), box.seal('SECRET', oauth2SecretAad('ep_1')));
  const { cache, reads } = cacheOver(good);
  const egress = await cache.of('ep_1', 3);
  assert.deepEqual(
    [egress.proxy, egress.clientCertificate, egress.oauth2?.clientSecret, egress.oauth2?.id],
    ['none', { id: 'ep_1 v3', cert: 'PEM', key: 'KEY' }, 'SECRET', 'ep_1 v3'],
  );
  await cache.of('ep_1', 3);
  assert.equal(reads(), 1, 'read once per version');
  assert.equal((await cache.of('ep_1', 4)).oauth2?.id, 'ep_1 v4');
  assert.equal(reads(), 2, 'read again when the version moves');

  // The client secret where the key goes, the key where the secret goes, or either sealed for another endpoint.
  for (const bad of [
    row(good.oauth2!.secretSealed, good.oauth2!.secretSealed),
    row(good.certificate!.keySealed, good.certificate!.keySealed),
    row(box.seal('KEY', clientKeyAad('ep_2')), good.oauth2!.secretSealed),
    row(good.certificate!.keySealed, box.seal('SECRET', oauth2SecretAad('ep_2'))),
  ])
    await assert.rejects(cacheOver(bad).cache.of('ep_1', 1), /cannot open sealed value/);
});
