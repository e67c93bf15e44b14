// An audit log entry as the API answers it, and the verification report (docs/audit.md).
import type { AuditEntry, AuditVerification } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { int, iso, nullableStr, obj, str, time } from '../../http/views.ts';

const change = obj({ before: {}, after: {} });

export const AuditEntrySchema = named(
  'AuditEntry',
  obj({
    seq: { ...int, description: 'Position in the chain: 1, 2, 3, … without gaps.' },
    at: time,
    tenant_id: nullableStr,
    actor: obj({
      kind: { type: 'string', enum: ['admin', 'api_key', 'console_session', 'portal_link', 'system'] },
      id: nullableStr,
      ip: nullableStr,
      user_agent: nullableStr,
      request_id: nullableStr,
    }),
    action: { ...str, description: '`<resource>.<verb>`, e.g. endpoint.update, api_key.revoke, console.sign_in' },
    target: obj({ type: str, id: nullableStr }),
    changes: {
      type: 'object',
      additionalProperties: change,
      description: 'The target row’s changed columns, before → after; secret values read `[redacted]`.',
    },
    details: { type: 'object', additionalProperties: true },
    prev_hash: str,
    hash: { ...str, description: 'SHA-256 (hex) over the entry’s canonical form and prev_hash (docs/audit.md#chain).' },
  }),
);

export const auditEntryView = (e: AuditEntry) => ({
  seq: e.seq,
  at: iso(e.at),
  tenant_id: e.target.tenantId,
  actor: {
    kind: e.actor.kind,
    id: e.actor.id,
    ip: e.actor.ip,
    user_agent: e.actor.userAgent,
    request_id: e.actor.requestId,
  },
  action: e.action,
  target: { type: e.target.type, id: e.target.id },
  changes: e.changes,
  details: e.details,
  prev_hash: e.prevHash,
  hash: e.hash,
});

export const AuditVerificationSchema = named(
  'AuditVerification',
  obj({
    ok: { type: 'boolean' },
    checked: int,
    from: obj({ seq: int, hash: str }, 'Where the walk began: the last entry retention purged (seq 0 before any).'),
    broken: {
      type: ['object', 'null'],
      required: ['seq', 'reason'],
      properties: { seq: int, reason: str },
      description: 'The first entry that does not hold (edited, deleted or out of chain), or null.',
    },
  }),
);

export const auditVerificationView = (v: AuditVerification) => ({
  ok: v.ok,
  checked: v.checked,
  from: { seq: v.from.seq, hash: v.from.hash },
  broken: v.broken,
});
