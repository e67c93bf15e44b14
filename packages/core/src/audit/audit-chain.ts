// The audit chain (docs/audit.md#chain): each entry's hash covers its canonical form and the previous hash, so an
// edited, inserted or deleted entry breaks the walk from the checkpoint at the first entry that no longer holds.
import { createHash } from 'node:crypto';
import type { AuditCheckpoint, AuditEntry } from './audit-types.ts';

/** JSON with object keys sorted at every depth: the same entry always serialises to the same bytes. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** The hash an entry must carry: SHA-256 over (seq, at, actor, action, target, changes, details, prev_hash). */
export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  const form = canonicalJson([
    e.seq,
    e.at,
    {
      kind: e.actor.kind,
      id: e.actor.id,
      ip: e.actor.ip,
      user_agent: e.actor.userAgent,
      request_id: e.actor.requestId,
    },
    e.action,
    { type: e.target.type, id: e.target.id, tenant_id: e.target.tenantId },
    e.changes,
    e.details,
    e.prevHash,
  ]);
  return createHash('sha256').update(form, 'utf8').digest('hex');
}

/**
 * Walks entries in seq order from `prev` (the checkpoint, then each entry checked): the first break, or null. A break
 * is a missing seq (deleted), a prev_hash that is not the previous entry's hash, or a hash the entry's fields do not give.
 */
export function firstBreak(
  prev: AuditCheckpoint,
  entries: readonly AuditEntry[],
): { seq: number; reason: string } | null {
  let last = prev;
  for (const e of entries) {
    if (e.seq !== last.seq + 1)
      return { seq: last.seq + 1, reason: `entry ${last.seq + 1} is missing (the next one is ${e.seq})` };
    if (e.prevHash !== last.hash) return { seq: e.seq, reason: 'prev_hash is not the previous entry’s hash' };
    if (entryHash(e) !== e.hash) return { seq: e.seq, reason: 'the entry’s fields do not give its hash (edited)' };
    last = { seq: e.seq, hash: e.hash };
  }
  return null;
}
