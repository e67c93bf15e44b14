import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exactBytes, reviveBuffers } from './sqlite-thread-protocol.ts';

test('a pooled Buffer is sent as an exact copy; an exact one as is', () => {
  const pooled = Buffer.from('x'.repeat(100)); // a slice of Node's 8 KB pool
  assert.ok(pooled.buffer.byteLength > pooled.byteLength);
  const sent = exactBytes(pooled);
  assert.equal(sent.buffer.byteLength, 100);
  assert.deepEqual(Buffer.from(sent), pooled);
  const own = Buffer.alloc(100, 1);
  assert.equal(exactBytes(own), own);
});

test('structured-cloned Uint8Arrays come back as Buffers, deep in arrays and plain objects', () => {
  const cloned = structuredClone({ a: [{ body: Buffer.from('hi') }], when: new Date(0), n: 1 });
  assert.ok(!Buffer.isBuffer(cloned.a[0].body));
  const revived = reviveBuffers(cloned);
  assert.ok(Buffer.isBuffer(revived.a[0].body));
  assert.equal(revived.a[0].body.toString(), 'hi');
  assert.ok(revived.when instanceof Date);
});
