import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { canonicalJson, entryHash, firstBreak } from './audit-chain.ts';
import type { AuditEntry } from './audit-types.ts';

test('canonical JSON sorts keys at every depth and drops undefined: the same entry, the same bytes', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { f: 1, e: null }], c: undefined } }),
    '{"a":{"d":[2,{"e":null,"f":1}]},"b":1}',
  );
  assert.equal(canonicalJson({ x: 1, y: 2 }), canonicalJson({ y: 2, x: 1 }));
});

function chain(n: number): AuditEntry[] {
  const out: AuditEntry[] = [];
  let prev = '';
  for (let seq = 1; seq <= n; seq++) {
    const e: Omit<AuditEntry, 'hash'> = {
      seq,
      at: 1000 + seq,
      actor: { kind: 'admin', id: 'admin', ip: '127.0.0.1', userAgent: null, requestId: `req_${seq}` },
      action: 'tenant.update',
      target: { type: 'tenant', id: 'ten_a', tenantId: 'ten_a' },
      changes: { name: { before: `n${seq - 1}`, after: `n${seq}` } },
      details: {},
      prevHash: prev,
    };
    const full = { ...e, hash: entryHash(e) };
    out.push(full);
    prev = full.hash;
  }
  return out;
}

test('a chain verifies; an edit, a deletion or a re-linked forgery is named at its seq', () => {
  const start = { seq: 0, hash: '' };
  assert.equal(firstBreak(start, chain(4)), null);
  const edited = chain(4);
  edited[1] = { ...edited[1], changes: { name: { before: 'n0', after: 'forged' } } };
  assert.deepEqual(firstBreak(start, edited)?.seq, 2);
  const deleted = chain(4).filter((e) => e.seq !== 3);
  assert.match(firstBreak(start, deleted)!.reason, /entry 3 is missing/);
  // Re-hashing the edited entry makes it hold by itself, but the next entry's prev_hash still names the original.
  const rehashed = chain(4);
  const { hash: _, ...body } = { ...rehashed[1], actor: { ...rehashed[1].actor, id: 'someone' } };
  rehashed[1] = { ...body, hash: entryHash(body) };
  assert.equal(firstBreak(start, rehashed)?.seq, 3);
  // From a checkpoint (retention): the kept tail verifies from the last purged entry's hash.
  const full = chain(4);
  assert.equal(firstBreak({ seq: 2, hash: full[1].hash }, full.slice(2)), null);
  assert.equal(firstBreak({ seq: 2, hash: 'other' }, full.slice(2))?.seq, 3);
});

test('the hash is SHA-256 over the documented form, so anyone can recompute it from an export (docs/audit.md#chain)', () => {
  const [first] = chain(1);
  const form =
    '[1,1001,{"id":"admin","ip":"127.0.0.1","kind":"admin","request_id":"req_1","user_agent":null},"tenant.update",' +
    '{"id":"ten_a","tenant_id":"ten_a","type":"tenant"},{"name":{"after":"n1","before":"n0"}},{},""]';
  assert.equal(first!.hash, createHash('sha256').update(form, 'utf8').digest('hex'));
  // Each field, nested ones included, moves the hash.
  const { hash: _, ...base } = first!;
  const variants: Array<Omit<AuditEntry, 'hash'>> = [
    { ...base, seq: 2 },
    { ...base, at: 1000 },
    { ...base, actor: { ...base.actor, kind: 'system' } },
    { ...base, actor: { ...base.actor, id: 'other' } },
    { ...base, actor: { ...base.actor, ip: '10.0.0.1' } },
    { ...base, actor: { ...base.actor, userAgent: 'ua' } },
    { ...base, actor: { ...base.actor, requestId: 'req_2' } },
    { ...base, action: 'tenant.delete' },
    { ...base, target: { ...base.target, type: 'api_key' } },
    { ...base, target: { ...base.target, id: 'ten_b' } },
    { ...base, target: { ...base.target, tenantId: null } },
    { ...base, changes: {} },
    { ...base, details: { note: 1 } },
    { ...base, prevHash: 'f00d' },
  ];
  const hashes = new Set([first!.hash, ...variants.map(entryHash)]);
  assert.equal(hashes.size, variants.length + 1);
});
