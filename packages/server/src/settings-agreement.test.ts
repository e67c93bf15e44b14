// Unit tests of the settings comparison: what refuses a start, what only warns, and what is never compared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcessRecord } from '@hookline/core';
import { resolveConfig } from './config.ts';
import { compareSettings, keyCheck, refusal, settingsFingerprint } from './settings-agreement.ts';

const KEY = Buffer.alloc(32, 9).toString('base64');
const PG = 'postgres://u@127.0.0.1/db';

function proc(id: string, argv: Record<string, unknown>, epoch = 0, key = KEY): ProcessRecord {
  const config = resolveConfig({ env: {}, argv: { db: PG, ...argv } });
  return {
    processId: id,
    role: config.role,
    epoch,
    settings: settingsFingerprint(config, key),
    startedAt: 0,
    seenAt: 0,
  };
}

test('equal settings: nothing differs, whatever the roles', () => {
  assert.deepEqual(compareSettings(proc('a', { role: 'api' }), [proc('b', { role: 'worker' })]), []);
  // A process is never compared with its own row.
  assert.deepEqual(compareSettings(proc('a', { allowHttp: true }), [proc('a', {})]), []);
});

test('a refuse setting that differs within one epoch blocks, named with both values', () => {
  const me = proc('w', { role: 'worker' });
  const [m, ...rest] = compareSettings(me, [proc('a', { role: 'api', allowHttp: true })]);
  assert.equal(rest.length, 0);
  assert.deepEqual(m, {
    setting: 'allowHttp',
    here: 'false',
    there: 'true',
    processId: 'a',
    role: 'api',
    blocking: true,
  });
  assert.match(refusal(m!).message, /^config allowHttp: differs from the live api process a .*here false, there true/);
});

test('the master key is compared by its key-check value only, and blocks', () => {
  const other = Buffer.alloc(32, 7).toString('base64');
  const found = compareSettings(proc('w', { role: 'worker' }), [proc('a', { role: 'api' }, 0, other)]);
  assert.deepEqual(
    found.map((m) => [m.setting, m.blocking]),
    [['masterKey', true]],
  );
  assert.equal(found[0]!.there, keyCheck(other));
  for (const shown of [found[0]!.here, found[0]!.there]) {
    assert.match(shown, /^kcv:[0-9a-f]{16}$/);
    assert.ok(!shown.includes(KEY) && !shown.includes(other));
  }
});

test('policies and money rules compare by digest, independent of key order', () => {
  const policy = { name: 'gentle', extends: 'standard', timeout: '10s', maxAge: '1h' };
  const reordered = { maxAge: '1h', timeout: '10s', extends: 'standard', name: 'gentle' };
  assert.deepEqual(compareSettings(proc('a', { policies: [policy] }), [proc('b', { policies: [reordered] })]), []);
  const found = compareSettings(proc('a', { policies: [policy] }), [proc('b', {})]);
  assert.deepEqual(
    found.map((m) => [m.setting, m.blocking]),
    [['policies', true]],
  );
});

test('an API-only setting warns between two api processes and is not compared with a worker', () => {
  const me = proc('a1', { role: 'api', bodyLimitBytes: 2048 });
  assert.deepEqual(
    compareSettings(me, [proc('a2', { role: 'api' })]).map((m) => [m.setting, m.blocking]),
    [['bodyLimitBytes', false]],
  );
  assert.deepEqual(compareSettings(me, [proc('w', { role: 'worker' })]), []);
  // Role all reads everything.
  assert.deepEqual(
    compareSettings(me, [proc('x', { role: 'all' })]).map((m) => m.setting),
    ['bodyLimitBytes'],
  );
});

test('a newer epoch may start beside an older one (warned); an older one is refused beside a newer', () => {
  const newer = proc('n', { allowHttp: true }, 2);
  const older = proc('o', {}, 1);
  assert.deepEqual(
    compareSettings(newer, [older]).map((m) => [m.setting, m.blocking]),
    [['allowHttp', false]],
  );
  const fromOld = compareSettings(older, [newer]);
  assert.deepEqual(
    fromOld.map((m) => [m.setting, m.blocking]),
    [
      ['settingsEpoch', true],
      ['allowHttp', false],
    ],
  );
  assert.match(refusal(fromOld[0]!).message, /^config settingsEpoch: .* epoch 2, this one 1/);
});

test('a setting the other process did not publish (an older release) is not compared', () => {
  const old = proc('o', {});
  const { allowHttp: _, ...fewer } = old.settings;
  assert.deepEqual(compareSettings(proc('n', { allowHttp: true }), [{ ...old, settings: fewer }]), []);
});
