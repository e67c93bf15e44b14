// The audit log (docs/audit.md): how an operation records its change (audited: the store write and its entry in one
// transaction), entries that go with no row change (sign-ins), listing, and verification of the chain.
import { firstBreak } from '../audit/audit-chain.ts';
import {
  type Actor,
  type AuditCheckpoint,
  type AuditDraft,
  type AuditEntry,
  type AuditFilter,
  type AuditTarget,
  type AuditVerification,
  SYSTEM_ACTOR,
} from '../audit/audit-types.ts';
import type { AuditedMethod, AuditedWrite, Page } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';

/** What an operation says about its change: the action and its target (the store adds the diff and the chain). */
export interface AuditWhat {
  action: string;
  target: AuditTarget;
  details?: Record<string, unknown>;
}

/** The store write `method(...args)` with its audit entry, in one transaction (AuditStore.audited). */
export function audited<M extends AuditedMethod>(
  p: EngineParts,
  actor: Actor | undefined,
  what: AuditWhat,
  method: M,
  ...args: Parameters<AuditedWrite<M>>
): ReturnType<AuditedWrite<M>> {
  return p.store.audit.audited(draft(p, actor, what), method, args) as ReturnType<AuditedWrite<M>>;
}

function draft(p: EngineParts, actor: Actor | undefined, what: AuditWhat): AuditDraft {
  return { at: p.clock.now(), actor: actor ?? SYSTEM_ACTOR, ...what };
}

/** Entries per read while verifying: bounded memory whatever the log's length. */
const VERIFY_PAGE = 1000;

export class AuditOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** An entry for something that changes no row (a console sign-in, a sign-out). */
  record(actor: Actor | undefined, what: AuditWhat): Promise<AuditEntry> {
    return this.#p.store.audit.appendAudit(draft(this.#p, actor, what));
  }

  /** Newest first; `filter.tenantId` limits it to one tenant's entries. */
  list(filter: AuditFilter, cursor: string | null, limit: number): Promise<Page<AuditEntry>> {
    return this.#p.store.audit.listAudit(filter, cursor, limit);
  }

  /**
   * Walks the chain from the checkpoint to the head as it was when the walk began (entries appended meanwhile are
   * left for the next walk): the first entry that does not hold, or ok.
   */
  async verify(): Promise<AuditVerification> {
    const { checkpoint, head } = await this.#p.store.audit.auditBounds();
    let last: AuditCheckpoint = checkpoint;
    let checked = 0;
    const result = (broken: AuditVerification['broken']): AuditVerification => ({
      ok: broken === null,
      checked,
      from: checkpoint,
      broken,
    });
    while (last.seq < head.seq) {
      const page = (await this.#p.store.audit.auditChain(last.seq, VERIFY_PAGE)).filter((e) => e.seq <= head.seq);
      if (page.length === 0) break;
      const broken = firstBreak(last, page);
      if (broken) {
        checked += page.findIndex((e) => e.seq >= broken.seq) + 1;
        return result(broken);
      }
      checked += page.length;
      const end = page[page.length - 1];
      last = { seq: end.seq, hash: end.hash };
    }
    if (last.seq < head.seq)
      return result({ seq: last.seq + 1, reason: `entries ${last.seq + 1}–${head.seq} are missing (deleted)` });
    if (last.hash !== head.hash)
      return result({ seq: head.seq, reason: 'the chain’s head does not match its last entry' });
    return result(null);
  }
}
