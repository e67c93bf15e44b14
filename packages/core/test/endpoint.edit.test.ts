// Endpoint create and edit through the engine's operations (operations/endpoints.ts): what a new endpoint holds by
// default, what each edit changes, and each refusal with its catalog code. No sends: nothing here waits on a receiver.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HooklineError } from '../src/errors.ts';
import type { SendRequest } from '../src/http/sender.ts';
import { hasPrefix } from '../src/ids.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { testEngine } from '../testing/harness.ts';

/** A policy whose concurrency cap differs from the presets', so a fallback to the wrong policy shows. */
const policies = PolicyRegistry.fromConfig([
  { name: 'narrow', extends: 'standard', maxConcurrency: 3 },
  { name: 'wide', extends: 'standard', maxConcurrency: 40 },
]);

async function refused(what: Promise<unknown>, code: string, params?: Record<string, unknown>): Promise<void> {
  await assert.rejects(what, (err: unknown) => {
    assert.ok(err instanceof HooklineError, String(err));
    assert.equal(err.code, code);
    if (params) assert.deepEqual(err.params, params);
    return true;
  });
}

const URL_ = 'http://127.0.0.1:9/hook';

test('a new endpoint: every default, stored as returned, with an HMAC secret shown once', async () => {
  const t = await testEngine({ policies });
  try {
    const now = t.clock.now();
    const { endpoint, secret, publicKey } = await t.engine.endpoints.create(t.tenantId, { url: URL_ });
    assert.ok(hasPrefix(endpoint.id, 'ep'), endpoint.id);
    assert.equal(typeof secret, 'string');
    assert.ok(secret!.length >= 32, 'a real secret');
    assert.equal(publicKey, null);
    assert.deepEqual(
      { ...endpoint, id: undefined },
      {
        id: undefined,
        tenantId: t.tenantId,
        url: URL_,
        description: '',
        eventTypes: [],
        policy: 'standard',
        scheme: 'hookline',
        timeoutMs: null,
        maxConcurrency: policies.get('standard')!.maxConcurrency,
        ordering: 'none',
        orderingOnFailure: 'continue',
        payloadFilter: null,
        customHeaders: {},
        pausedAt: null,
        signing: 'hmac',
        rateLimitPerS: null,
        // The Svix-compatible API's labels (docs/svix-compatibility.md): none unless given.
        uid: null,
        metadata: {},
        channels: null,
        status: 'active',
        pauseReason: null,
        failingSince: null,
        consecutiveFailedEvents: 0,
        lastSuccessAt: null,
        createdAt: now,
        updatedAt: now,
        // docs/rules.md#egress-proxy: no proxy choice, client certificate or OAuth2 client.
        egress: { proxy: null, certificate: null, oauth2: null },
      },
    );
    const stored = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    // The row adds what only the store keeps: the edit version and the learned concurrency (none yet).
    const { version, effectiveConcurrency, ...row } = stored as typeof stored & { effectiveConcurrency?: unknown };
    assert.equal(typeof version, 'number');
    assert.equal(effectiveConcurrency ?? null, null);
    assert.deepEqual(row, endpoint);
    assert.deepEqual(await t.engine.endpoints.find(t.tenantId, endpoint.id), stored);
    const page = await t.engine.endpoints.list(t.tenantId, null, 10);
    assert.deepEqual(
      page.items.map((e) => e.id),
      [endpoint.id],
    );
  } finally {
    await t.close();
  }
});

test('create: the given fields are kept; a policy gives its cap; paused at birth is a manual pause', async () => {
  const t = await testEngine({ policies });
  try {
    const now = t.clock.now();
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: URL_,
      description: 'orders',
      event_types: ['order.paid'],
      policy: 'narrow',
      scheme: 'standard',
      timeout_ms: 2500,
      ordering: 'key',
      on_failure: 'block',
      payload_filter: { path: 'data.amount', gte: 100 },
      headers: { 'x-team': 'billing' },
      rate_limit_per_s: 10_000,
      status: 'paused',
    });
    assert.equal(endpoint.description, 'orders');
    assert.deepEqual(endpoint.eventTypes, ['order.paid']);
    assert.equal(endpoint.policy, 'narrow');
    assert.equal(endpoint.maxConcurrency, 3);
    assert.equal(endpoint.scheme, 'standard');
    assert.equal(endpoint.timeoutMs, 2500);
    assert.equal(endpoint.ordering, 'key');
    assert.equal(endpoint.orderingOnFailure, 'block');
    assert.deepEqual(endpoint.payloadFilter, { path: 'data.amount', gte: 100 });
    assert.deepEqual(endpoint.customHeaders, { 'x-team': 'billing' });
    assert.equal(endpoint.rateLimitPerS, 10_000);
    assert.equal(endpoint.status, 'paused');
    assert.equal(endpoint.pauseReason, 'manual');
    assert.equal(endpoint.pausedAt, now);
    const capped = await t.engine.endpoints.create(t.tenantId, { url: URL_, policy: 'wide', max_concurrency: 7 });
    assert.equal(capped.endpoint.maxConcurrency, 7);
    const one = await t.engine.endpoints.create(t.tenantId, { url: URL_, rate_limit_per_s: 1, status: 'active' });
    assert.equal(one.endpoint.rateLimitPerS, 1);
    assert.equal(one.endpoint.status, 'active');
    assert.equal(one.endpoint.pausedAt, null);
  } finally {
    await t.close();
  }
});

test('create: ed25519 signs with the standard scheme and returns only the public key', async () => {
  const t = await testEngine({ policies });
  try {
    const { endpoint, secret, publicKey } = await t.engine.endpoints.create(t.tenantId, {
      url: URL_,
      signing: 'ed25519',
    });
    assert.equal(endpoint.signing, 'ed25519');
    assert.equal(endpoint.scheme, 'standard');
    assert.equal(secret, null);
    assert.equal(typeof publicKey, 'string');
    assert.ok(publicKey!.length > 20);
    await refused(
      t.engine.endpoints.create(t.tenantId, { url: URL_, signing: 'ed25519', scheme: 'hookline' }),
      'signing_needs_standard_scheme',
    );
  } finally {
    await t.close();
  }
});

test('create refuses a bad URL, an unknown policy, a bad rate limit or filter, and stores nothing', async () => {
  const t = await testEngine({ policies });
  try {
    await refused(t.engine.endpoints.create(t.tenantId, { url: 'not a url' }), 'url_invalid');
    await refused(t.engine.endpoints.create(t.tenantId, { url: URL_, policy: 'nope' }), 'unknown_policy', {
      name: 'nope',
    });
    for (const bad of [0, 10_001, 1.5, -1, '5'])
      await refused(
        t.engine.endpoints.create(t.tenantId, { url: URL_, rate_limit_per_s: bad as number }),
        'rate_limit_invalid',
      );
    await refused(
      t.engine.endpoints.create(t.tenantId, { url: URL_, payload_filter: { path: 'status', equals: 1 } }),
      'invalid_filter',
    );
    assert.equal((await t.engine.endpoints.list(t.tenantId, null, 10)).items.length, 0);
  } finally {
    await t.close();
  }
});

test('an edit changes what it names, stamps the time, and leaves the rest', async () => {
  const t = await testEngine({ policies });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: URL_,
      description: 'before',
      policy: 'narrow',
      rate_limit_per_s: 5,
      headers: { 'x-a': '1' },
      payload_filter: { path: 'type', equals: 'a' },
    });
    t.clock.advance(1000);
    const a = await t.engine.endpoints.update(t.tenantId, endpoint.id, {
      description: 'after',
      event_types: ['x.y'],
      timeout_ms: 1234,
      ordering: 'key',
      on_failure: 'block',
      scheme: 'standard',
    });
    assert.equal(a.description, 'after');
    assert.deepEqual(a.eventTypes, ['x.y']);
    assert.equal(a.timeoutMs, 1234);
    assert.equal(a.ordering, 'key');
    assert.equal(a.orderingOnFailure, 'block');
    assert.equal(a.scheme, 'standard');
    assert.equal(a.updatedAt, endpoint.createdAt + 1000);
    // Untouched: what the edit did not name.
    assert.equal(a.url, URL_);
    assert.equal(a.policy, 'narrow');
    assert.equal(a.maxConcurrency, 3);
    assert.equal(a.rateLimitPerS, 5);
    assert.deepEqual(a.customHeaders, { 'x-a': '1' });
    assert.deepEqual(a.payloadFilter, { path: 'type', equals: 'a' });

    const b = await t.engine.endpoints.update(t.tenantId, endpoint.id, {
      url: 'http://127.0.0.1:9/other',
      headers: { 'x-b': '2' },
      payload_filter: null,
      rate_limit_per_s: null,
      timeout_ms: null,
    });
    assert.equal(b.url, 'http://127.0.0.1:9/other');
    assert.deepEqual(b.customHeaders, { 'x-b': '2' });
    assert.equal(b.payloadFilter, null);
    assert.equal(b.rateLimitPerS, null);
    assert.equal(b.timeoutMs, null);
    assert.ok(b.version > a.version, 'each edit bumps the version the secret cache keys on');

    // A cap set to null falls back to the policy's: the new policy's when the same edit changes it.
    const c = await t.engine.endpoints.update(t.tenantId, endpoint.id, { policy: 'wide', max_concurrency: null });
    assert.equal(c.maxConcurrency, 40);
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { max_concurrency: 9 });
    const d = await t.engine.endpoints.update(t.tenantId, endpoint.id, { max_concurrency: null });
    assert.equal(d.maxConcurrency, 40);
    const e = await t.engine.endpoints.update(t.tenantId, endpoint.id, { policy: 'narrow' });
    assert.equal(e.maxConcurrency, 40, 'a policy change alone keeps the cap');
  } finally {
    await t.close();
  }
});

test('edit refusals: each with its code, nothing changed', async () => {
  const t = await testEngine({ policies });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: URL_ });
    const { endpoint: ed } = await t.engine.endpoints.create(t.tenantId, { url: URL_, signing: 'ed25519' });
    const id = endpoint.id;
    await refused(t.engine.endpoints.update(t.tenantId, 'ep_missing', { description: 'x' }), 'endpoint_not_found');
    await refused(
      t.engine.endpoints.update(t.tenantId, id, { catch_up: true, status: 'active' }),
      'catch_up_needs_reactivation',
    );
    await refused(t.engine.endpoints.update(t.tenantId, id, { url: 'nope' }), 'url_invalid');
    await refused(t.engine.endpoints.update(t.tenantId, id, { policy: 'nope' }), 'unknown_policy', { name: 'nope' });
    await refused(t.engine.endpoints.update(t.tenantId, id, { signing: 'ed25519' }), 'signing_immutable', {
      signing: 'hmac',
      requested: 'ed25519',
    });
    await refused(t.engine.endpoints.update(t.tenantId, ed.id, { signing: 'hmac' }), 'signing_immutable', {
      signing: 'ed25519',
      requested: 'hmac',
    });
    await refused(
      t.engine.endpoints.update(t.tenantId, ed.id, { scheme: 'hookline' }),
      'signing_needs_standard_scheme',
    );
    await refused(t.engine.endpoints.update(t.tenantId, id, { rate_limit_per_s: 0 }), 'rate_limit_invalid');
    await refused(t.engine.endpoints.update(t.tenantId, id, { payload_filter: { all: [] } }), 'invalid_filter');
    await refused(t.engine.endpoints.update(t.tenantId, id, { status: 'disabled' as 'active' }), 'invalid_request');
    // What is allowed: the same signing again, the standard scheme on an ed25519 endpoint, hookline on an HMAC one.
    assert.equal((await t.engine.endpoints.update(t.tenantId, id, { signing: 'hmac' })).signing, 'hmac');
    assert.equal((await t.engine.endpoints.update(t.tenantId, ed.id, { scheme: 'standard' })).scheme, 'standard');
    assert.equal((await t.engine.endpoints.update(t.tenantId, id, { scheme: 'standard' })).scheme, 'standard');
    assert.equal((await t.engine.endpoints.update(t.tenantId, id, { scheme: 'hookline' })).scheme, 'hookline');
    const after = await t.engine.endpoints.get(t.tenantId, id);
    assert.equal(after.url, URL_);
    assert.equal(after.policy, 'standard');
    assert.equal(after.rateLimitPerS, null);
    assert.equal(after.status, 'active');
  } finally {
    await t.close();
  }
});

test('pause and resume by edit; retry now refuses a paused endpoint; reactivation with catch-up needs a paused one', async () => {
  const t = await testEngine({ policies });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: URL_ });
    const id = endpoint.id;
    assert.deepEqual(await t.engine.endpoints.retry(t.tenantId, id), { moved: 0 });
    await refused(
      t.engine.endpoints.reactivate(t.tenantId, id, { status: 'active', catch_up: true }),
      'endpoint_not_paused',
      { status: 'active' },
    );
    const paused = await t.engine.endpoints.update(t.tenantId, id, { status: 'paused' });
    assert.equal(paused.status, 'paused');
    assert.equal(paused.pauseReason, 'manual');
    await refused(t.engine.endpoints.retry(t.tenantId, id), 'endpoint_paused');
    await refused(t.engine.endpoints.reactivate(t.tenantId, id, { catch_up: true }), 'catch_up_needs_reactivation');
    await refused(
      t.engine.endpoints.reactivate(t.tenantId, 'ep_missing', { status: 'active', catch_up: true }),
      'endpoint_not_found',
    );
    const again = await t.engine.endpoints.update(t.tenantId, id, { status: 'paused', description: 'still' });
    assert.equal(again.pauseReason, 'manual');
    const active = await t.engine.endpoints.update(t.tenantId, id, { status: 'active' });
    assert.equal(active.status, 'active');
    assert.equal(active.pauseReason, null);
    await refused(t.engine.endpoints.retry(t.tenantId, 'ep_missing'), 'endpoint_not_found');
  } finally {
    await t.close();
  }
});

test('delete: gone for get and edits, a second delete is not found', async () => {
  const t = await testEngine({ policies });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, { url: URL_ });
    await t.engine.endpoints.delete(t.tenantId, endpoint.id);
    assert.equal(await t.engine.endpoints.find(t.tenantId, endpoint.id), null);
    await refused(t.engine.endpoints.get(t.tenantId, endpoint.id), 'endpoint_not_found');
    await refused(t.engine.endpoints.delete(t.tenantId, endpoint.id), 'endpoint_not_found');
    await refused(t.engine.endpoints.update(t.tenantId, endpoint.id, { description: 'x' }), 'endpoint_not_found');
  } finally {
    await t.close();
  }
});

test('a test delivery: the capped timeout, a signed request with the custom headers, leased while it is sent', async () => {
  const seen: Array<{ request: SendRequest; lease: number | null | undefined }> = [];
  const t = await testEngine({
    policies,
    maintenance: { enabled: false },
    sender: {
      async send(request) {
        const rows = await t.store.reporting.listDeliveries({ tenantId: t.tenantId }, null, 10);
        seen.push({ request, lease: rows.items[0]?.leaseUntil });
        return {
          outcome: 'success',
          status: 204,
          responseHeaders: {},
          bodyExcerpt: '',
          errorClass: null,
          errorMessage: null,
          startedAt: t.clock.now(),
          durationMs: 1,
          simulatedDurationMs: 1,
        };
      },
    },
  });
  try {
    t.clock.set(Date.UTC(2026, 0, 5, 12, 0, 0, 750));
    const now = t.clock.now();
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: URL_,
      scheme: 'standard',
      policy: 'narrow',
      timeout_ms: 90_000,
      headers: { 'x-team': 'billing' },
    });
    const attempt = await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal(seen.length, 1);
    const { request, lease } = seen[0];
    assert.equal(request.url, URL_);
    assert.equal(request.timeoutMs, 60_000, 'a test send waits at most 60 s, whatever the endpoint says');
    assert.equal(request.endpointId, endpoint.id);
    assert.equal(request.maxConcurrency, 3);
    assert.equal(request.headers['x-team'], 'billing');
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(now / 1000)));
    assert.match(request.headers['webhook-signature'] ?? '', /^v1,/);
    const envelope = JSON.parse(request.body.toString('utf8'));
    assert.equal(envelope.type, 'hookline.test');
    assert.deepEqual(envelope.data, { endpoint_id: endpoint.id, message: 'test delivery from Hookline' });
    assert.equal(lease, now + 60_000 + 30_000, 'leased for the send and a margin');
    assert.equal(attempt.outcome, 'success');
    assert.equal(attempt.responseStatus, 204);
    assert.equal(attempt.ladder, 'fast');
    assert.equal(attempt.n, 1);
    assert.equal(attempt.trigger, 'test');
    assert.equal(attempt.requestHeaders?.['x-team'], 'billing');
    await refused(t.engine.endpoints.test(t.tenantId, 'ep_missing'), 'endpoint_not_found');
  } finally {
    await t.close();
  }
});
