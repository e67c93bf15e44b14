// Which storage errors end a store for good (a failed fsync) and which pass (a full disk), and how health reads.

/** What stops a store from taking writes now; `fatal` ones never recover in this process. */
export interface StoreProblem {
  fatal: boolean;
  reason: string;
}

/** Codes carried by the error every call gets once a store has failed for good. */
export const FSYNC_FAILED = 'SQLITE_IOERR_FSYNC';

/**
 * After a failed fsync the kernel may have dropped the dirty pages and marked them clean, so a later fsync succeeds
 * although the data never reached the disk (PostgreSQL's "fsyncgate"). Nothing written since the last good fsync
 * can be promised any more: the store refuses every call and the process must restart and recover from the WAL.
 */
export class StorageFatalError extends Error {
  readonly code = FSYNC_FAILED;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFatalError';
  }
}

const FSYNC_CODES = new Set(['SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_DIR_FSYNC']);
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** An fsync SQLite itself made failed (a checkpoint's): the same latch as WalSync's own. */
export function isFsyncFailure(err: unknown): boolean {
  return err instanceof StorageFatalError || FSYNC_CODES.has(codeOf(err));
}

/**
 * A write that failed without a failed fsync: the disk is full, or a write/read I/O error. SQLite rolled the
 * transaction back and nothing was promised, so it is retried later, not latched.
 */
export function isStorageWriteError(err: unknown): boolean {
  const code = codeOf(err);
  return DISK_FULL_CODES.has(code) || code === 'EIO' || (code.startsWith('SQLITE_IOERR') && !FSYNC_CODES.has(code));
}

export function isDiskFull(err: unknown): boolean {
  return DISK_FULL_CODES.has(codeOf(err));
}

/** A write refused by a unique index (SQLite SQLITE_CONSTRAINT_UNIQUE, PostgreSQL 23505): a caller's uid already taken. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
