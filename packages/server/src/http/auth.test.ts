import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '@hookline/core';
import { AuthLookups, apiKeyEnvironment, authenticate, generateApiKey } from './auth.ts';

test('auth lookups are remembered for their TTL, forgotten at once on forget(), and misses are never remembered', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-auth-'));
  const store = await openSqliteStore(join(dir, 'h.db'));
  try {
    let reads = 0;
    const find = store.catalog.findApiKeyByHash.bind(store);
    store.catalog.findApiKeyByHash = (h) => (reads++, find(h));
    let now = 0;
    const lookups = new AuthLookups(store.catalog, 1000, () => now);
    await store.catalog.createTenant({
      id: 'ten_a',
      name: 'a',
      environment: 'test',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: 1,
      updatedAt: 1,
    });
    const k = generateApiKey('test');

    assert.equal(await lookups.apiKey(k.hash), null, 'not created yet');
    await store.catalog.createApiKey({
      id: 'key_1',
      tenantId: 'ten_a',
      hash: k.hash,
      prefix: k.prefix,
      name: 'ci',
      createdAt: 1,
      revokedAt: null,
      lastUsedAt: null,
    });
    assert.equal((await lookups.apiKey(k.hash))?.id, 'key_1', 'a miss was not remembered');
    const before = reads;
    await lookups.apiKey(k.hash);
    assert.equal(reads, before, 'within the TTL the store is not asked');
    now += 1001;
    await lookups.apiKey(k.hash);
    assert.equal(reads, before + 1, 'after the TTL it is');

    await store.catalog.revokeApiKey('ten_a', 'key_1', 2);
    lookups.forget();
    assert.notEqual((await lookups.apiKey(k.hash))?.revokedAt, null, 'revoked at once after forget()');

    assert.equal(await lookups.tenantEnvironment('ten_a'), 'test');
    await store.catalog.deleteTenant('ten_a');
    assert.equal(await lookups.tenantExists('ten_a'), true, 'remembered within the TTL');
    lookups.forget();
    assert.equal(await lookups.tenantExists('ten_a'), false);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a key opens only a tenant of the environment its prefix names (docs/rules.md#environments)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-auth-'));
  const store = await openSqliteStore(join(dir, 'h.db'));
  try {
    const lookups = new AuthLookups(store.catalog, 1000, () => 0);
    const admin = createHash('sha256').update('admin', 'utf8').digest();
    await store.catalog.createTenant({
      id: 'ten_t',
      name: 't',
      environment: 'test',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: 1,
      updatedAt: 1,
    });
    const good = generateApiKey('test');
    // A key whose prefix names the other environment (never minted by the API; planted here) must not authenticate.
    const crossed = generateApiKey('live');
    assert.match(good.key, /^hk_test_/);
    assert.equal(good.prefix.slice(0, 8), 'hk_test_');
    for (const [id, k] of [
      ['key_good', good],
      ['key_crossed', crossed],
    ] as const) {
      await store.catalog.createApiKey({
        id,
        tenantId: 'ten_t',
        hash: k.hash,
        prefix: k.prefix,
        name: id,
        createdAt: 1,
        revokedAt: null,
        lastUsedAt: null,
      });
    }
    assert.deepEqual(await authenticate(lookups, admin, `Bearer ${good.key}`), {
      kind: 'tenant',
      tenantId: 'ten_t',
      keyId: 'key_good',
      environment: 'test',
    });
    assert.equal(
      await authenticate(lookups, admin, `Bearer ${crossed.key}`),
      null,
      'a hk_live_ key of a test tenant is refused',
    );
    assert.equal(apiKeyEnvironment('hk_live_x'), 'live');
    assert.equal(apiKeyEnvironment('hk_test_x'), 'test');
    assert.equal(apiKeyEnvironment('hk_prod_x'), null);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
