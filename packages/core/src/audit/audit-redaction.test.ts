import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REDACTED, redactDetails, rowDiff } from './audit-redaction.ts';

test('the diff holds only changed columns; a create or delete holds every column against null', () => {
  assert.deepEqual(rowDiff({ id: 'a', name: 'x', n: 1 }, { id: 'a', name: 'y', n: 1 }), {
    name: { before: 'x', after: 'y' },
  });
  assert.deepEqual(rowDiff(null, { id: 'a' }), { id: { before: null, after: 'a' } });
  assert.deepEqual(rowDiff({ id: 'a' }, null), { id: { before: 'a', after: null } });
  // A column another release adds shows up by itself.
  assert.deepEqual(rowDiff({ id: 'a' }, { id: 'a', mtls_mode: 'required' }), {
    mtls_mode: { before: null, after: REDACTED },
  });
});

test('secret columns are redacted by name, before and after; header values always, header names kept', () => {
  const diff = rowDiff(
    { hash: 'h1', sealed: 's1', oauth_client_secret: 'c1', custom_headers: '{"X-Token":"t1"}', url: 'https://a' },
    {
      hash: 'h2',
      sealed: 's2',
      oauth_client_secret: 'c2',
      custom_headers: '{"X-Token":"t2","X-Env":"prod"}',
      url: 'https://a',
    },
  );
  assert.deepEqual(diff, {
    custom_headers: { before: { 'X-Token': REDACTED }, after: { 'X-Env': REDACTED, 'X-Token': REDACTED } },
    hash: { before: REDACTED, after: REDACTED },
    oauth_client_secret: { before: REDACTED, after: REDACTED },
    sealed: { before: REDACTED, after: REDACTED },
  });
  assert.deepEqual(redactDetails({ new_kid: 'sec_1', signing_key: 'k', api_key: 'hk_live_x' }), {
    new_kid: 'sec_1',
    signing_key: REDACTED,
    api_key: REDACTED,
  });
  assert.deepEqual(rowDiff({ body: Buffer.from('a') }, { body: Buffer.from('b') }), {
    body: { before: 'base64:YQ==', after: 'base64:Yg==' },
  });
});
