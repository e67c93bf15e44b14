// The audit part of the store (docs/audit.md): entries appended in the same transaction as the change they describe,
// chained by hash; listed, walked for verification, and purged past retention behind a checkpoint.
import type { AuditCheckpoint, AuditDraft, AuditEntry, AuditFilter } from '../../audit/audit-types.ts';
import type { Page } from '../page.ts';

/** The store writes an operation may wrap in audited(), each with its part: each runs inside the entry's transaction. */
export const AUDITED_METHODS = {
  createTenant: 'catalog',
  updateTenant: 'catalog',
  deleteTenant: 'catalog',
  createApiKey: 'catalog',
  revokeApiKey: 'catalog',
  createPortalLink: 'catalog',
  consumePortalLink: 'catalog',
  createEndpoint: 'catalog',
  updateEndpoint: 'catalog',
  deleteEndpoint: 'catalog',
  rotateSecret: 'catalog',
  reactivateWithCatchUp: 'replays',
  retryDelivery: 'queue',
  retryEndpointDeliveries: 'queue',
  dismissDelivery: 'replays',
  scheduleSingleReplay: 'replays',
  scheduleWindowReplay: 'replays',
  resetBreakerWindow: 'breakers',
  recordTestAttempt: 'queue',
  putEventType: 'catalog',
  setTenantLabels: 'svix',
  setEndpointLabels: 'svix',
  addDelivery: 'svix',
} as const;
export type AuditedMethod = keyof typeof AUDITED_METHODS;

export interface AuditStore {
  /**
   * Runs the store write `method(...args)` and appends the draft's entry in one transaction: the target row is read
   * before and after, and the entry holds the columns that changed. A write that returns null or false (nothing found,
   * nothing changed: the caller answers 404/409) appends nothing; a write that throws rolls both back.
   */
  audited(draft: AuditDraft, method: AuditedMethod, args: unknown[]): Promise<unknown>;
  /** Appends an entry that goes with no row change (a console sign-in, an endpoint probe); its own transaction. */
  appendAudit(draft: AuditDraft): Promise<AuditEntry>;
  /** Newest first; the cursor is the last entry's seq. */
  listAudit(filter: AuditFilter, cursor: string | null, limit: number): Promise<Page<AuditEntry>>;
  /** Up to `limit` entries with seq > `afterSeq`, oldest first: the walk verification makes. */
  auditChain(afterSeq: number, limit: number): Promise<AuditEntry[]>;
  /** Where the kept chain starts (the last purged entry) and its head (the last appended). */
  auditBounds(): Promise<{ checkpoint: AuditCheckpoint; head: AuditCheckpoint }>;
  /** Deletes up to `batch` of the oldest entries made before `before`, moving the checkpoint onto the last deleted; the count. */
  purgeAudit(before: number, batch: number): Promise<number>;
}
