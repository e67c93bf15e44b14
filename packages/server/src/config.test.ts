import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULTS } from '@hookline/core';
import { DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { ConfigError } from './config-error.ts';

const file = (json: unknown) => {
  const p = join(mkdtempSync(join(tmpdir(), 'hookline-config-')), 'hookline.json');
  writeFileSync(p, JSON.stringify(json));
  return p;
};

test('defaults are frozen and used when nothing is set', () => {
  const c = resolveConfig({ env: {} });
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.db, './hookline.db');
  assert.equal(c.role, 'all');
  assert.equal(c.replayQuotaPerDay, 20);
  assert.equal(c.rotationOverlapMs, 86_400_000);
  assert.equal(c.retentionMs, 30 * 86_400_000);
  assert.equal(c.bodyLimitBytes, 1024 * 1024);
  assert.equal(c.batchBodyLimitBytes, 10 * 1024 * 1024);
  assert.ok(Object.isFrozen(DEFAULT_CONFIG) && Object.isFrozen(c) && Object.isFrozen(c.dispatcher));
});

test('the server runs with the engine defaults, the numbers `hookline serve` has always used', () => {
  const c = resolveConfig({ env: {} });
  assert.deepEqual(c.dispatcher, { batchSize: 500, maxInFlight: 2000, leaseMs: 90_000 });
  assert.deepEqual(c.dispatcher, {
    batchSize: DEFAULTS.dispatcher.batchSize,
    maxInFlight: DEFAULTS.dispatcher.maxInFlight,
    leaseMs: DEFAULTS.dispatcher.leaseMs,
  });
  assert.equal(c.rotationOverlap, '24h');
  assert.equal(c.rotationOverlapMs, DEFAULTS.rotationOverlapMs);
  assert.equal(c.retention, '30d');
  assert.equal(c.retentionMs, DEFAULTS.retention.deliveriesMs);
  assert.equal(c.replayQuotaPerDay, DEFAULTS.replay.quotaPerDay);
  assert.ok(Object.isFrozen(DEFAULT_CONFIG.policies) && Object.isFrozen(DEFAULT_CONFIG.dispatcher));
});

test('layers: file < HOOKLINE_* env < flags', () => {
  const p = file({ port: 9000, host: '0.0.0.0', replayQuotaPerDay: 5, dispatcher: { batchSize: 10 } });
  const c = resolveConfig({
    file: p,
    env: { HOOKLINE_PORT: '9100', HOOKLINE_DATABASE_URL: '/tmp/x.db', HOOKLINE_ALLOW_HTTP: 'true' },
    argv: { port: 9200, 'allow-private-targets': true },
  });
  assert.equal(c.port, 9200);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.db, '/tmp/x.db');
  assert.equal(c.allowHttp, true);
  assert.equal(c.allowPrivateTargets, true);
  assert.equal(c.replayQuotaPerDay, 5);
  assert.deepEqual(c.dispatcher, { batchSize: 10, maxInFlight: 2000, leaseMs: 90_000 });
});

test('HOOKLINE_DB and smtp env variables', () => {
  const c = resolveConfig({
    env: {
      HOOKLINE_DB: 'postgres://u@h/db',
      HOOKLINE_SMTP_HOST: 'smtp.test',
      HOOKLINE_SMTP_PORT: '2525',
      HOOKLINE_SMTP_FROM: 'a@b.test',
    },
  });
  assert.equal(c.db, 'postgres://u@h/db');
  assert.deepEqual(c.smtp, { host: 'smtp.test', port: 2525, from: 'a@b.test' });
});

test('bad values throw a one-line ConfigError naming the key', () => {
  const cases: Array<[() => unknown, string]> = [
    [() => resolveConfig({ env: { HOOKLINE_PORT: 'eighty' } }), 'port'],
    [() => resolveConfig({ env: { HOOKLINE_ROLE: 'boss' } }), 'role'],
    [() => resolveConfig({ env: { HOOKLINE_ALLOW_HTTP: 'maybe' } }), 'allowHttp'],
    [() => resolveConfig({ env: { HOOKLINE_MASTER_KEY: 'short' } }), 'masterKey'],
    [() => resolveConfig({ env: { HOOKLINE_ROTATION_OVERLAP: '24' } }), 'rotationOverlap'],
    [
      () => resolveConfig({ env: { HOOKLINE_POLICIES: '[{"name":"x","fast":{"delays":[]}}]' } }),
      'policies[0].fast.delays',
    ],
    [() => resolveConfig({ env: { HOOKLINE_MONEY_RULES: '[{"type":"a","in":["x"]}]' } }), 'moneyRules[0].in'],
    [() => resolveConfig({ file: file({ prot: 1 }) }), 'prot'],
    [() => resolveConfig({ file: '/nonexistent/hookline.json' }), 'config'],
  ];
  for (const [fn, key] of cases) {
    assert.throws(
      fn,
      (err: unknown) => err instanceof ConfigError && err.key === key && !err.message.includes('\n'),
      `expected ConfigError for ${key}`,
    );
  }
});

test('policies from config are validated and kept', () => {
  const c = resolveConfig({ env: {}, argv: { policies: [{ name: 'mine', extends: 'standard', timeout: '5s' }] } });
  assert.equal(c.policies.length, 1);
});

test('role api or worker needs PostgreSQL: a postgres:// or postgresql:// URL in any case, never a SQLite file', () => {
  for (const db of ['postgres://u@h/db', 'postgresql://u@h/db', 'POSTGRES://u@h/db', 'PostgreSQL://u@h/db'])
    assert.equal(resolveConfig({ env: { HOOKLINE_DB: db, HOOKLINE_ROLE: 'api' } }).role, 'api', db);
  assert.throws(
    () => resolveConfig({ env: { HOOKLINE_DB: './postgres.db', HOOKLINE_ROLE: 'worker' } }),
    (err: unknown) => err instanceof ConfigError && err.key === 'role',
  );
});

test('notifications.reopenWindow: 15 min by default, from the file or HOOKLINE_NOTIFICATIONS_REOPEN_WINDOW, at most 24 h', () => {
  assert.equal(resolveConfig({ env: {} }).notifications.reopenWindowMs, DEFAULTS.notifications.reopenWindowMs);
  assert.equal(DEFAULTS.notifications.reopenWindowMs, 15 * 60_000);
  const env = { HOOKLINE_NOTIFICATIONS_REOPEN_WINDOW: '5m' };
  assert.deepEqual(resolveConfig({ env }).notifications, { reopenWindow: '5m', reopenWindowMs: 300_000 });
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cfg-'));
  const file = join(dir, 'c.json');
  writeFileSync(file, JSON.stringify({ notifications: { reopenWindow: '0s' } }));
  assert.equal(resolveConfig({ env: {}, file }).notifications.reopenWindowMs, 0);
  assert.throws(
    () => resolveConfig({ env: { HOOKLINE_NOTIFICATIONS_REOPEN_WINDOW: '2d' } }),
    (e: Error) => e instanceof ConfigError && /notifications\.reopenWindow/.test(e.message),
  );
  writeFileSync(file, JSON.stringify({ notifications: { window: '1m' } }));
  assert.throws(() => resolveConfig({ env: {}, file }), /notifications\.window/);
});

test('egress: no proxy by default; egress.{proxy,no_proxy,proxies} from the file, HOOKLINE_EGRESS_* override; bad ones named', () => {
  assert.deepEqual(resolveConfig({ env: {} }).egress, { proxy: null, noProxy: [], proxies: {} });
  const path = file({
    egress: {
      proxy: 'http://u:p@10.0.0.5:3128',
      no_proxy: ['.internal.example', '10.0.0.0/8'],
      proxies: { eu: 'http://eu-proxy:8080' },
    },
  });
  assert.deepEqual(resolveConfig({ env: {}, file: path }).egress, {
    proxy: 'http://u:p@10.0.0.5:3128',
    noProxy: ['.internal.example', '10.0.0.0/8'],
    proxies: { eu: 'http://eu-proxy:8080' },
  });
  const env = { HOOKLINE_EGRESS_PROXY: 'http://squid:3128', HOOKLINE_EGRESS_NO_PROXY: 'a.example, 192.168.0.0/16' };
  const both = resolveConfig({ env, file: path }).egress;
  assert.deepEqual(both, {
    proxy: 'http://squid:3128',
    noProxy: ['a.example', '192.168.0.0/16'],
    proxies: { eu: 'http://eu-proxy:8080' },
  });
  const refused: Array<[Record<string, unknown>, RegExp]> = [
    [{ egress: { proxy: 'https://squid:3128' } }, /egress\.proxy.*http:\/\//],
    [{ egress: { proxy: 'not a url' } }, /egress\.proxy/],
    [{ egress: { no_proxy: ['10.0.0.0/40'] } }, /egress\.no_proxy/],
    [{ egress: { proxies: { none: 'http://p:1' } } }, /egress/],
    [{ egress: { proxies: { eu: 'ftp://p:1' } } }, /egress\.proxies\.eu/],
    [{ egress: { via: 'x' } }, /egress\.via/],
  ];
  for (const [json, message] of refused)
    assert.throws(
      () => resolveConfig({ env: {}, file: file(json) }),
      (e: Error) => e instanceof ConfigError && message.test(e.message),
      JSON.stringify(json),
    );
});
