// An audit entry written inside the caller's transaction: the target row's snapshot before and after, the diff,
// the chained hash (docs/audit.md); and an entry read back from its row.
import { entryHash } from '../../audit/audit-chain.ts';
import { redactDetails, rowDiff } from '../../audit/audit-redaction.ts';
import type { AuditDraft, AuditEntry, AuditTarget } from '../../audit/audit-types.ts';
import type { SqlExecutor } from '../sql-driver.ts';

type Row = Record<string, unknown>;

/**
 * A store write's answer that says it did nothing: null or false (not found, not changed), or a refusal
 * (`{ kind: 'quota_exceeded' | 'not_found' | 'not_paused' }`; only `scheduled` is a success among kinds).
 */
export function nothingDone(result: unknown): boolean {
  if (result === null || result === false) return true;
  if (typeof result === 'object' && result !== null && 'kind' in result) return result.kind !== 'scheduled';
  return false;
}

/** Thrown inside an audited write's transaction to roll it back, carrying the write's answer out. */
export class NothingDone extends Error {
  constructor(readonly result: unknown) {
    super('the audited write did nothing');
  }
}

/** The target row as stored, every column; null when there is none (before a create, after a delete). */
export async function snapshot(tx: SqlExecutor, target: AuditTarget): Promise<Row | null> {
  const id = target.id;
  if (id === null) return null;
  const read = (rows: Row[]) => rows[0] ?? null;
  switch (target.type) {
    case 'tenant':
      return read(await tx.all('audit-snapshot-tenant', { id }));
    case 'api_key':
      return read(await tx.all('audit-snapshot-api-key', { id }));
    case 'endpoint':
      return read(await tx.all('audit-snapshot-endpoint', { id }));
    case 'event_type':
      return read(await tx.all('audit-snapshot-event-type', { id }));
    case 'delivery':
      return read(await tx.all('audit-snapshot-delivery', { id }));
    case 'replay':
      return read(await tx.all('audit-snapshot-replay', { id }));
    case 'breaker':
      return read(await tx.all('audit-snapshot-breaker', { id }));
    case 'portal_link':
      return read(await tx.all('audit-snapshot-portal-link', { id }));
    case 'console_session':
      return null;
  }
}

/**
 * Appends one entry at the chain's head, inside `tx`: reads (and on PostgreSQL locks) the head, so appends from every
 * process take seq one after another and each entry's prev_hash is the entry before it.
 */
function rowTenant(before: Row | null, after: Row | null): string | null {
  const t = after?.tenant_id ?? before?.tenant_id;
  return typeof t === 'string' ? t : null;
}

export async function append(
  tx: SqlExecutor,
  draft: AuditDraft,
  before: Row | null,
  after: Row | null,
): Promise<AuditEntry> {
  const [head] = await tx.all('audit-chain-head');
  const entry: Omit<AuditEntry, 'hash'> = {
    seq: Number(head.head_seq) + 1,
    at: draft.at,
    actor: {
      kind: draft.actor.kind,
      id: draft.actor.id ?? null,
      ip: draft.actor.ip ?? null,
      userAgent: draft.actor.userAgent ?? null,
      requestId: draft.actor.requestId ?? null,
    },
    action: draft.action,
    // A target whose tenant the caller could not know (a portal link being used) takes its row's.
    target: {
      type: draft.target.type,
      id: draft.target.id,
      tenantId: draft.target.tenantId ?? rowTenant(before, after),
    },
    changes: rowDiff(before, after),
    details: redactDetails(draft.details),
    prevHash: String(head.head_hash),
  };
  const full: AuditEntry = { ...entry, hash: entryHash(entry) };
  await tx.run('insert-audit', {
    seq: full.seq,
    at: full.at,
    tenant_id: full.target.tenantId,
    actor_kind: full.actor.kind,
    actor_id: full.actor.id,
    ip: full.actor.ip,
    user_agent: full.actor.userAgent,
    request_id: full.actor.requestId,
    action: full.action,
    target_type: full.target.type,
    target_id: full.target.id,
    changes: JSON.stringify(full.changes),
    details: JSON.stringify(full.details),
    prev_hash: full.prevHash,
    hash: full.hash,
  });
  await tx.run('audit-set-head', { seq: full.seq, hash: full.hash });
  return full;
}

function json(v: unknown): Record<string, any> {
  if (typeof v === 'string') return JSON.parse(v);
  return (v ?? {}) as Record<string, any>;
}

export function entryFromRow(r: Row): AuditEntry {
  return {
    seq: Number(r.seq),
    at: Number(r.at),
    actor: {
      kind: r.actor_kind as AuditEntry['actor']['kind'],
      id: (r.actor_id as string | null) ?? null,
      ip: (r.ip as string | null) ?? null,
      userAgent: (r.user_agent as string | null) ?? null,
      requestId: (r.request_id as string | null) ?? null,
    },
    action: String(r.action),
    target: {
      type: r.target_type as AuditTarget['type'],
      id: (r.target_id as string | null) ?? null,
      tenantId: (r.tenant_id as string | null) ?? null,
    },
    changes: json(r.changes),
    details: json(r.details),
    prevHash: String(r.prev_hash),
    hash: String(r.hash),
  };
}
