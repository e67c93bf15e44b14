// Custom headers: what validation refuses, how they merge beneath the signed headers, and what an attempt records.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HooklineError } from '../errors.ts';
import {
  CUSTOM_HEADER_LIMITS,
  parseCustomHeaders,
  REDACTED,
  recordedHeaders,
  withCustomHeaders,
} from './custom-headers.ts';

function refused(input: unknown, code: string, name?: string): void {
  assert.throws(
    () => parseCustomHeaders(input),
    (err: unknown) => {
      assert.ok(err instanceof HooklineError);
      assert.equal(err.code, code, JSON.stringify(input));
      assert.equal(err.status, 400);
      if (name !== undefined) assert.equal(err.params.name, name);
      return true;
    },
  );
}

test('valid headers pass unchanged, names keep their case', () => {
  assert.deepEqual(parseCustomHeaders({ 'X-Tenant': 'acme', Authorization: 'Bearer abc', 'x-env': '' }), {
    'X-Tenant': 'acme',
    Authorization: 'Bearer abc',
    'x-env': '',
  });
  assert.deepEqual(parseCustomHeaders(undefined), {});
  assert.deepEqual(parseCustomHeaders(null), {});
});

test('names must be HTTP tokens; values no CR, LF or controls', () => {
  refused({ 'X Bad': 'v' }, 'invalid_header', 'X Bad');
  refused({ 'X:Bad': 'v' }, 'invalid_header', 'X:Bad');
  refused({ '': 'v' }, 'invalid_header', '');
  refused({ 'X-A': 'a\r\nX-Injected: 1' }, 'invalid_header', 'X-A');
  refused({ 'X-A': 'a\nb' }, 'invalid_header', 'X-A');
  refused({ 'X-A': 'a\u0000' }, 'invalid_header', 'X-A');
  refused({ 'X-A': 'é' }, 'invalid_header', 'X-A');
  refused({ 'X-A': ' padded' }, 'invalid_header', 'X-A');
  refused({ 'X-A': 5 }, 'invalid_header', 'X-A');
  refused({ ['X'.repeat(CUSTOM_HEADER_LIMITS.maxNameLength + 1)]: 'v' }, 'invalid_header');
  refused({ 'X-A': 'v'.repeat(CUSTOM_HEADER_LIMITS.maxValueBytes + 1) }, 'invalid_header', 'X-A');
  refused(['X-A', 'v'], 'invalid_request');
  refused('X-A: v', 'invalid_request');
});

test('hop-by-hop headers and every header Hookline sets are refused, in any case', () => {
  for (const name of [
    'Connection',
    'keep-alive',
    'Transfer-Encoding',
    'TE',
    'Trailer',
    'Upgrade',
    'Proxy-Authorization',
    'Host',
    'Content-Length',
    'Content-Type',
    'User-Agent',
    'X-Webhook-Id',
    'x-webhook-signature',
    'X-Webhook-Timestamp',
    'X-Webhook-Delivery',
    'webhook-id',
    'Webhook-Signature',
    'webhook-timestamp',
    'X-Webhook-Anything',
  ]) {
    refused({ [name]: 'v' }, 'invalid_header', name);
  }
});

test('duplicates by case, too many, too large', () => {
  refused({ 'X-A': '1', 'x-a': '2' }, 'invalid_header', 'x-a');
  const twenty = Object.fromEntries(
    Array.from({ length: CUSTOM_HEADER_LIMITS.maxHeaders }, (_, i) => [`X-H${i}`, 'v']),
  );
  assert.equal(Object.keys(parseCustomHeaders(twenty)).length, 20);
  refused({ ...twenty, 'X-H20': 'v' }, 'too_many_headers');
  const big = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`X-H${i}`, 'v'.repeat(1000)]));
  refused(big, 'custom_headers_too_large');
});

test('merged beneath the signed headers: a custom header never replaces a signed one, whatever its case', () => {
  const signed = { 'X-Webhook-Id': 'evt_1', 'X-Webhook-Signature': 't=1,v1=aa,kid=k' };
  assert.deepEqual(withCustomHeaders({ 'X-Tenant': 'acme' }, signed), { 'X-Tenant': 'acme', ...signed });
  // Stored rows are validated, but the merge holds on its own too.
  const merged = withCustomHeaders(
    { 'x-webhook-signature': 'forged', 'x-webhook-id': 'other', 'content-type': 'text/plain', 'X-Ok': '1' },
    signed,
  );
  assert.deepEqual(merged, { 'X-Ok': '1', ...signed });
  assert.deepEqual(withCustomHeaders(undefined, signed), signed);
});

test('attempt records redact custom values whose name looks like a credential', () => {
  const custom = {
    Authorization: 'Bearer s3cret',
    'X-Api-Key': 'k',
    'X-Auth-Token': 't',
    Cookie: 'c=1',
    'X-Tenant': 'acme',
  };
  const sent = withCustomHeaders(custom, { 'X-Webhook-Signature': 'sig' });
  const recorded = recordedHeaders(custom, sent);
  assert.deepEqual(recorded, {
    Authorization: REDACTED,
    'X-Api-Key': REDACTED,
    'X-Auth-Token': REDACTED,
    Cookie: REDACTED,
    'X-Tenant': 'acme',
    'X-Webhook-Signature': 'sig',
  });
  assert.equal(sent.Authorization, 'Bearer s3cret', 'what is sent is not redacted');
});
