import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasPrefix, newId } from './ids.ts';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

test('ids are prefix + 26 Crockford base32 characters and sort in creation order, also within one millisecond', () => {
  const t = Date.UTC(2026, 10, 30, 6, 0, 0);
  const ids = [newId('dlv', t), newId('dlv', t), newId('dlv', t), newId('dlv', t + 1), newId('dlv', t + 1000)];
  for (const id of ids) {
    assert.ok(hasPrefix(id, 'dlv'), id);
    assert.match(id.slice(4), CROCKFORD);
  }
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  // The first 10 characters are the millisecond time, big-endian base32.
  const decode = (s: string) => [...s].reduce((n, c) => n * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c), 0);
  assert.equal(decode(ids[4].slice(4, 14)), t + 1000);
});

test('random parts differ between milliseconds (thousands of ids, no repeats)', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) seen.add(newId('att', 1_000_000 + i).slice(14));
  assert.equal(seen.size, 5000);
});
