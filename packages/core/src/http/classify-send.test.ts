import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyTransportError, outcomeForStatus } from './classify-send.ts';
import { RefusedAddressError } from './guarded-lookup.ts';
import { MAX_RETRY_AFTER_MS, retryAfterHeaderMs } from './retry-after-header.ts';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

test('outcomeForStatus follows docs/rules.md#outcome-classes', () => {
  const table: Array<[number, string]> = [
    [200, 'success'],
    [201, 'success'],
    [204, 'success'],
    [299, 'success'],
    [500, 'delivery_failure'],
    [502, 'delivery_failure'],
    [503, 'delivery_failure'],
    [429, 'delivery_failure'],
    [301, 'client_error'],
    [302, 'client_error'],
    [307, 'client_error'],
    [400, 'client_error'],
    [404, 'client_error'],
    [410, 'client_error'],
    [101, 'client_error'],
  ];
  for (const [status, outcome] of table) assert.equal(outcomeForStatus(status), outcome, String(status));
});

test('classifyTransportError maps codes, wrapped causes and aggregate errors', () => {
  const table: Array<[unknown, string]> = [
    [coded('ECONNREFUSED'), 'connection'],
    [coded('ECONNRESET', 'read ECONNRESET'), 'connection'],
    [coded('EPIPE'), 'connection'],
    [coded('UND_ERR_SOCKET', 'other side closed'), 'connection'],
    [coded('EHOSTUNREACH'), 'connection'],
    [coded('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [coded('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [coded('UND_ERR_BODY_TIMEOUT'), 'timeout'],
    [coded('ETIMEDOUT'), 'timeout'],
    [coded('ENOTFOUND'), 'dns'],
    [coded('EAI_AGAIN'), 'dns'],
    [coded('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    [coded('CERT_HAS_EXPIRED'), 'tls'],
    [coded('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [coded('ERR_SSL_WRONG_VERSION_NUMBER'), 'tls'],
    [coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls'],
    [coded('ECONNRESET', 'Client network socket disconnected before secure TLS connection was established'), 'tls'],
    [new RefusedAddressError('x.example', ['10.0.0.1']), 'refused_address'],
    [new Error('fetch failed', { cause: coded('ENOTFOUND') }), 'dns'],
    [new AggregateError([coded('ECONNREFUSED'), coded('ETIMEDOUT')]), 'timeout'],
    ['a string', 'connection'],
    [null, 'connection'],
  ];
  for (const [err, cls] of table)
    assert.equal(classifyTransportError(err), cls, String((err as Error)?.message ?? err));
});

test('retryAfterHeaderMs reads delta seconds and HTTP dates, clamps, ignores junk', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  assert.equal(retryAfterHeaderMs('120', now), 120_000);
  assert.equal(retryAfterHeaderMs(' 0 ', now), 0);
  assert.equal(retryAfterHeaderMs(['5', '9'], now), 5000);
  assert.equal(retryAfterHeaderMs(new Date(now + 90_000).toUTCString(), now), 90_000);
  assert.equal(retryAfterHeaderMs('Thursday, 01-Jan-26 12:01:00 GMT', now), 60_000); // RFC 850
  assert.equal(retryAfterHeaderMs('Thu Jan  1 12:00:30 2026', now) !== undefined, true); // asctime (local time per Date.parse)
  assert.equal(retryAfterHeaderMs(new Date(now - 90_000).toUTCString(), now), 0);
  assert.equal(retryAfterHeaderMs('999999999999', now), MAX_RETRY_AFTER_MS);
  for (const junk of [undefined, '', 'soon', '-5', '1.5', '5s', 'Xyz, nonsense'])
    assert.equal(retryAfterHeaderMs(junk, now), undefined, String(junk));
});
