// The narrow interface every dedup store implements, and the claim decision they all share.

/**
 * `received`: id recorded, request not answered yet. `processing`: answered, worker running.
 * `done`: work finished, answer kept for duplicates. `failed`: worker failed, next delivery re-runs it.
 */
export type DedupState = 'received' | 'processing' | 'done' | 'failed';

/** The answer given to the first delivery, repeated to duplicates once its work is done. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: string;
}

export interface DedupRecord {
  readonly eventId: string;
  readonly state: DedupState;
  /** Incremented on every claim; fences a stale worker out of a re-claimed record. */
  readonly attempt: number;
  readonly answer: StoredAnswer | undefined;
  readonly error: string | undefined;
  /** Milliseconds. */
  readonly updatedAt: number;
}

export type ClaimResult =
  | { readonly kind: 'claimed'; readonly attempt: number }
  | { readonly kind: 'done'; readonly answer: StoredAnswer | undefined }
  | { readonly kind: 'in_progress'; readonly state: 'received' | 'processing'; readonly updatedAt: number };

/**
 * Durable record of event ids. Every method throws `StorageUnavailable` when the backend fails.
 * Times are passed in (milliseconds) so the handler's injectable clock rules, and tests need no sleeps.
 */
export interface DedupStore {
  /** Records the id (unique), or re-claims it when its earlier run failed or went stale. */
  claim(eventId: string, now: number, staleAfterMs: number): Promise<ClaimResult>;
  /** received → processing, keeping the answer given. False if the claim was lost. */
  markProcessing(eventId: string, attempt: number, answer: StoredAnswer, now: number): Promise<boolean>;
  /** received|processing → done; `answer` replaces the stored one when given. */
  markDone(eventId: string, attempt: number, now: number, answer?: StoredAnswer): Promise<boolean>;
  /** received|processing → failed, so the next delivery of this id runs the work again. */
  markFailed(eventId: string, attempt: number, error: string, now: number): Promise<boolean>;
  /** Forgets an unfinished claim whose request was rejected after recording (bad JSON, bad contract). */
  release(eventId: string, attempt: number): Promise<void>;
  get(eventId: string): Promise<DedupRecord | undefined>;
  /** Deletes finished records last touched before `before` (ms); TTL-based stores return 0. */
  prune(before: number): Promise<number>;
}

/**
 * The rule every store applies (SQL and Lua mirror it in one statement): a record may be
 * claimed again when its worker failed, or when a claim has not moved for `staleAfterMs`
 * (the process died between record and done), so work runs at least once.
 *
 * @example
 * isReclaimable({ state: 'processing', updatedAt: 0 }, 600_000, 300_000) // true
 */
export function isReclaimable(
  record: Pick<DedupRecord, 'state' | 'updatedAt'>,
  now: number,
  staleAfterMs: number,
): boolean {
  if (record.state === 'failed') return true;
  if (record.state === 'done') return false;
  return record.updatedAt < now - staleAfterMs;
}

/** Maps a record that could not be claimed to the claim outcome. */
export function claimOutcome(record: DedupRecord): ClaimResult {
  if (record.state === 'done') return { kind: 'done', answer: record.answer };
  if (record.state === 'failed') throw new Error('a failed record is always reclaimable');
  return { kind: 'in_progress', state: record.state, updatedAt: record.updatedAt };
}
