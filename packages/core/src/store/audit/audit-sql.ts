// The audit part's SQL: an audited write and its entry in one transaction, entries listed, walked and purged behind a
// checkpoint (docs/audit.md).
import type { AuditCheckpoint, AuditDraft, AuditEntry, AuditFilter } from '../../audit/audit-types.ts';
import type { Page } from '../page.ts';
import type { SqlDriver, SqlExecutor } from '../sql-driver.ts';
import { append, entryFromRow, NothingDone, nothingDone, snapshot } from './audit-entries.ts';
import { AUDITED_METHODS, type AuditedMethod } from './audit-store.ts';

/**
 * The write `method(...args)` of its part, with every statement going to the entry's transaction `tx` and its own
 * transactions joining `tx`: the write runs its usual code inside the audit entry's transaction.
 */
export function audited(s: StoreScope, draft: AuditDraft, method: AuditedMethod, args: unknown[]): Promise<unknown> {
  const write = s.parts[AUDITED_METHODS[method]][method] as (scope: StoreScope, ...a: unknown[]) => Promise<unknown>;
  return s.db
    .transaction(async (tx) => {
      const before = await snapshot(tx, draft.target);
      const result = await write({ ...s, db: joining(s.db, tx) }, ...args);
      // Nothing done: roll back whatever the write began (a catch-up's patch before its quota refusal) and record nothing.
      if (nothingDone(result)) throw new NothingDone(result);
      await append(tx, draft, before, await snapshot(tx, draft.target));
      return result;
    })
    .catch((err) => {
      if (err instanceof NothingDone) return err.result;
      throw err;
    });
}

/** A driver over the transaction `tx`: its statements go to `tx`, and its transactions join `tx`. */
function joining(db: SqlDriver, tx: SqlExecutor): SqlDriver {
  return {
    dialect: db.dialect,
    all: tx.all.bind(tx),
    run: tx.run.bind(tx),
    transaction: (fn) => fn(tx),
    migrate: () => Promise.reject(new Error('migrate inside a transaction')),
    ping: () => db.ping(),
    close: () => Promise.reject(new Error('close inside a transaction')),
  };
}

export function appendAudit({ db }: StoreScope, draft: AuditDraft): Promise<AuditEntry> {
  return db.transaction((tx) => append(tx, draft, null, null));
}

import type { StoreScope } from '../store-scope.ts';

export async function listAudit(
  { db }: StoreScope,
  filter: AuditFilter,
  cursor: string | null,
  limit: number,
): Promise<Page<AuditEntry>> {
  const before = cursor === null ? Number.MAX_SAFE_INTEGER : Number(cursor);
  const rs = await db.all('list-audit', {
    before: Number.isSafeInteger(before) ? before : 0,
    tenant_id: filter.tenantId ?? null,
    action: filter.action ?? null,
    since: filter.since ?? null,
    until: filter.until ?? null,
    limit: limit + 1,
  });
  const items = rs.map(entryFromRow);
  const more = items.length > limit;
  const kept = more ? items.slice(0, limit) : items;
  return { items: kept, nextCursor: more ? String(kept[kept.length - 1].seq) : null };
}

export async function auditChain({ db }: StoreScope, afterSeq: number, limit: number): Promise<AuditEntry[]> {
  return (await db.all('audit-chain-page', { after: afterSeq, limit })).map(entryFromRow);
}

export async function auditBounds({ db }: StoreScope): Promise<{ checkpoint: AuditCheckpoint; head: AuditCheckpoint }> {
  const [r] = await db.all('audit-chain-head');
  return {
    checkpoint: { seq: Number(r.base_seq), hash: String(r.base_hash) },
    head: { seq: Number(r.head_seq), hash: String(r.head_hash) },
  };
}

/** One batch of retention: the checkpoint moves onto the last entry deleted, in the same transaction. */
export function purgeAudit({ db }: StoreScope, before: number, batch: number): Promise<number> {
  return db.transaction((tx) => purgeBatch(tx, before, batch));
}
async function purgeBatch(tx: SqlExecutor, before: number, batch: number): Promise<number> {
  await tx.all('audit-chain-head'); // locks the chain (PostgreSQL): no append interleaves with the checkpoint's move
  const [last] = await tx.all('audit-purge-last', { before, limit: batch });
  if (!last) return 0;
  const n = await tx.run('delete-audit', { through: Number(last.seq) });
  await tx.run('audit-set-base', { seq: Number(last.seq), hash: String(last.hash) });
  return n;
}
