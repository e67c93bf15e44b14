import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ReceiverError, type ReceiverErrorCode, receiverErrors, StorageUnavailable } from './errors.ts';

// The README's status table is the contract users read; it must match the catalog both ways.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const documented = new Map(
  [...readme.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])] as const),
);

test('every catalog code is documented in the README with its status', () => {
  for (const [code, entry] of Object.entries(receiverErrors)) {
    assert.equal(documented.get(code), entry.status, `README status table row for ${code}`);
  }
});

test('every code the README documents exists in the catalog', () => {
  for (const code of documented.keys())
    assert.ok(Object.hasOwn(receiverErrors, code), `${code} is not in src/errors.ts`);
});

test('the plain reasons of docs/rules.md#receiver-verify are the messages', () => {
  const plain: Partial<Record<ReceiverErrorCode, string>> = {
    missing_signature: 'missing signature',
    signature_mismatch: 'signature mismatch',
    timestamp_too_old: 'timestamp too old',
    timestamp_too_far_ahead: 'timestamp too far ahead',
    event_already_seen: 'event id already seen',
  };
  for (const [code, message] of Object.entries(plain))
    assert.equal(new ReceiverError(code as ReceiverErrorCode).message, message);
  assert.equal(
    new ReceiverError('missing_required_field', { path: 'data.order_id' }).message,
    'missing required field data.order_id',
  );
  const down = new StorageUnavailable(new Error('ECONNREFUSED'));
  assert.ok(down instanceof ReceiverError);
  assert.equal(down.status, 503);
  assert.equal((down.cause as Error).message, 'ECONNREFUSED');
});
