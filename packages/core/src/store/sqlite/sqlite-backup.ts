// An online copy of a SQLite database file through SQLite's backup API, safe beside the process that owns the file.
// The source is opened read-only and without the owner lock (sqlite-owner-lock.ts guards against a second sender;
// a read-only reader sends nothing, and in WAL mode it never blocks the owner's commits). The copy is taken in one
// backup step, so it is one consistent snapshot: copied in small steps, every commit the owner made in between would
// restart it, and a busy server would keep it from ever finishing. It is written under a temporary name, checked,
// fsynced, and only then linked into place: a crash or a failure never leaves a partial file under the name asked for,
// and an existing file is never overwritten.

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, lstatSync, openSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** Why a backup was refused before anything was copied; anything else (a full disk, an I/O error) is thrown as is. */
export type SqliteBackupRefusal =
  | 'source_missing'
  | 'source_unreadable'
  | 'destination_exists'
  | 'destination_directory_missing';

export class SqliteBackupError extends Error {
  readonly reason: SqliteBackupRefusal;
  constructor(reason: SqliteBackupRefusal, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SqliteBackupError';
    this.reason = reason;
  }
}

export interface SqliteBackupResult {
  /** The file written (absolute). */
  path: string;
  pages: number;
  bytes: number;
}

/** Pages per backup step: every page in one step (better-sqlite3 takes no negative count). */
const ALL_PAGES = 0x7fffffff;

function exists(path: string): boolean {
  try {
    lstatSync(path); // a dangling symlink counts: linking over it would fail anyway
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

function removeQuietly(path: string): void {
  for (const p of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) {
    try {
      unlinkSync(p);
    } catch {
      // not there: nothing to remove
    }
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the database at `source` (committed state, WAL included) to `destination`, which must not exist; resolves
 * once the copy (mode 0600) and its directory entry are on disk. Throws SqliteBackupError for a refusal.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<SqliteBackupResult> {
  const target = resolve(destination);
  const dir = dirname(target);
  let dirIsDirectory = false;
  try {
    dirIsDirectory = statSync(dir).isDirectory();
  } catch {
    // missing or unreadable: refused below
  }
  if (!dirIsDirectory) throw new SqliteBackupError('destination_directory_missing', `directory ${dir} does not exist`);
  if (exists(target))
    throw new SqliteBackupError(
      'destination_exists',
      `${destination} already exists; a backup never overwrites a file: choose a new name`,
    );
  if (!exists(source)) throw new SqliteBackupError('source_missing', `no database at ${source}`);

  let db: Database.Database;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new SqliteBackupError('source_unreadable', `cannot open ${source}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    try {
      db.pragma('busy_timeout = 5000');
      // Reads the header: a file that is not a SQLite database fails here, before anything is written.
      db.pragma('schema_version', { simple: true });
    } catch (err) {
      throw new SqliteBackupError(
        'source_unreadable',
        `cannot read ${source} as a SQLite database: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const progress = await db.backup(temp, { progress: () => ALL_PAGES });
    db.close();
    check(temp);
    // Event payloads are customer data: the copy is the owner's alone, whatever the umask.
    chmodSync(temp, 0o600);
    fsyncPath(temp);
    try {
      linkSync(temp, target);
    } catch (err) {
      // Someone created the name while we copied: theirs stands.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new SqliteBackupError(
          'destination_exists',
          `${destination} already exists; a backup never overwrites a file: choose a new name`,
        );
      throw err;
    }
    unlinkSync(temp);
    fsyncPath(dir);
    return { path: target, pages: progress.totalPages, bytes: statSync(target).size };
  } finally {
    if (db.open) db.close();
    removeQuietly(temp);
  }
}

/** The copy must read back whole before it takes the name asked for. */
function check(path: string): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`the copy failed its check (${String(result)}); nothing was written`);
  } finally {
    // Its last connection closing folds any WAL the check made back into the file, so the file alone is the copy.
    copy.close();
  }
}
