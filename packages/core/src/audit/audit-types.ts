// The audit log's nouns (docs/audit.md): who made a change, from where, what it touched, and the chained entry.

/** Who: the admin token, a tenant API key, a console session, a portal link's session, or the engine itself. */
export type ActorKind = 'admin' | 'api_key' | 'console_session' | 'portal_link' | 'system';

export interface Actor {
  kind: ActorKind;
  /** The API key id, `admin`, the console session's principal (`admin` or a key id), the portal link id; null for system. */
  id: string | null;
  /** From where: the client's address, user agent and the request's id (null outside a request). */
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/** Changes made outside any request (retention, the CLI's direct store commands): the engine's own. */
export const SYSTEM_ACTOR: Readonly<Actor> = Object.freeze({ kind: 'system', id: null });

/** The kinds of rows an entry can target; each has a snapshot statement (store/sql/audit-snapshot-<type>.sql). */
export type AuditTargetType =
  | 'tenant'
  | 'api_key'
  | 'endpoint'
  | 'event_type'
  | 'delivery'
  | 'replay'
  | 'breaker'
  | 'portal_link'
  | 'console_session';

export interface AuditTarget {
  type: AuditTargetType;
  /** The row's id (an event type's name, a breaker's scope key, a portal link's id); null when there is none. */
  id: string | null;
  /** The tenant the change belongs to; null for installation-wide rows (event types). */
  tenantId: string | null;
}

/** What an operation hands the store: the entry minus what the store fills in (seq, the diff, the chain). */
export interface AuditDraft {
  at: number;
  actor: Actor;
  /** `<resource>.<verb>`: `endpoint.update`, `api_key.revoke`, `console.sign_in`. */
  action: string;
  target: AuditTarget;
  /** What the row diff cannot show (a rotated secret's new kid, the retirement time): redacted like the diff. */
  details?: Record<string, unknown>;
}

/** One field's change: the value before and after (`[redacted]` for secrets, docs/audit.md#redaction). */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

export interface AuditEntry {
  /** Position in the chain: 1, 2, 3, … with no gap (a gap is a deleted entry). */
  seq: number;
  at: number;
  actor: Required<Actor>;
  action: string;
  target: AuditTarget;
  /** Changed fields of the target row (its columns), before → after. */
  changes: Record<string, FieldChange>;
  details: Record<string, unknown>;
  /** The previous entry's hash ('' for the first entry ever). */
  prevHash: string;
  /** SHA-256 (hex) over the canonical form of everything above (audit-chain.ts). */
  hash: string;
}

/** Where verification starts: the last purged entry (seq 0 and '' before any purge). */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
}

export interface AuditFilter {
  tenantId?: string;
  action?: string;
  /** Only entries at or after this time (ms). */
  since?: number;
  /** Only entries before this time (ms). */
  until?: number;
}

export interface AuditVerification {
  ok: boolean;
  /** Entries checked. */
  checked: number;
  /** Where the walk began: the checkpoint left by retention. */
  from: AuditCheckpoint;
  /** The first entry that does not hold, or null. */
  broken: { seq: number; reason: string } | null;
}
