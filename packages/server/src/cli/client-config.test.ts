// The command line's client config: defaults, HOOKLINE_URL/TOKEN/TENANT/DEBUG and flags, in that order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../config-error.ts';
import { DEFAULT_CLIENT_CONFIG, resolveClientConfig } from './client-config.ts';

test('client config: defaults, frozen, when neither flags nor HOOKLINE_URL/TOKEN/TENANT/DEBUG are set', () => {
  const c = resolveClientConfig({ env: {} });
  assert.deepEqual(c, { url: 'http://127.0.0.1:8080', token: null, tenant: null, debug: false });
  assert.ok(Object.isFrozen(c) && Object.isFrozen(DEFAULT_CLIENT_CONFIG));
});

test('client config: HOOKLINE_* env < flags; an empty variable counts as unset', () => {
  const env = {
    HOOKLINE_URL: 'http://env.example:1',
    HOOKLINE_TOKEN: 'tok_env',
    HOOKLINE_TENANT: 'ten_ENV',
    HOOKLINE_DEBUG: '1',
  };
  assert.deepEqual(resolveClientConfig({ env }), {
    url: 'http://env.example:1',
    token: 'tok_env',
    tenant: 'ten_ENV',
    debug: true,
  });
  assert.deepEqual(resolveClientConfig({ env, argv: { url: 'http://flag.example:2', tenant: 'ten_FLAG' } }), {
    url: 'http://flag.example:2',
    token: 'tok_env',
    tenant: 'ten_FLAG',
    debug: true,
  });
  assert.deepEqual(
    resolveClientConfig({ env: { HOOKLINE_URL: '', HOOKLINE_TENANT: '', HOOKLINE_DEBUG: '' } }),
    DEFAULT_CLIENT_CONFIG,
  );
  assert.equal(resolveClientConfig({ env: { HOOKLINE_DEBUG: 'false' } }).debug, false);
});

test('client config: a HOOKLINE_DEBUG that is not a boolean is a ConfigError naming the key', () => {
  assert.throws(
    () => resolveClientConfig({ env: { HOOKLINE_DEBUG: 'loud' } }),
    (err: unknown) => err instanceof ConfigError && err.key === 'debug' && /must be true or false/.test(err.message),
  );
});
