// One process per SQLite file: `<db>.lock` beside the database names the owner's pid; a live owner refuses a second.
// Why: a second process on the file reads commits the first has not fsynced yet, so it could send before the 202.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A second process (or a second open in this one) while the owner lives; the message is one line. */
export class DatabaseInUseError extends Error {
  readonly pid: number;
  constructor(db: string, pid: number) {
    super(
      `${db} is in use by another Hookline process (pid ${pid}); on SQLite one process owns the file: stop it, or use PostgreSQL to run several`,
    );
    this.name = 'DatabaseInUseError';
    this.pid = pid;
  }
}

export interface SqliteOwnerLock {
  readonly path: string;
  release(): void;
}

/** Lock files this process holds; a lock naming our own pid that is not here was left by an earlier process (pid reuse). */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): { pid: number; text: string } | null {
  try {
    const text = readFileSync(path, 'utf8');
    const pid = Number.parseInt(text, 10);
    return { pid: Number.isInteger(pid) && pid > 0 ? pid : 0, text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Takes `<db>.lock` atomically: the content (pid and a nonce) is written to a private file first and then hard-linked
 * into place, which fails if the lock exists, so nobody ever reads a half-written lock. A lock whose pid is dead is
 * stale: it is renamed away (only one contender's rename can take it) and, if what was renamed is not the stale lock
 * that was read, put back.
 */
export function acquireSqliteOwnerLock(db: string): SqliteOwnerLock {
  const path = `${resolve(db)}.lock`;
  if (held.has(path)) throw new DatabaseInUseError(db, process.pid);
  const mine = `${process.pid}\n${randomBytes(8).toString('hex')}\n`;
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, mine, { mode: 0o600 });
  try {
    for (let tries = 0; tries < 10; tries++) {
      try {
        linkSync(temp, path);
        held.add(path);
        return {
          path,
          release() {
            if (!held.delete(path)) return;
            // Only our own lock is removed.
            if (readOwner(path)?.text === mine) unlinkSync(path);
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const owner = readOwner(path);
      if (owner === null) continue;
      if (owner.pid > 0 && owner.pid !== process.pid && isAlive(owner.pid)) throw new DatabaseInUseError(db, owner.pid);
      const aside = `${path}.stale.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const taken = readOwner(aside);
      if (taken !== null && taken.text !== owner.text) {
        // Another contender replaced the stale lock between our read and our rename: that one is live, give it back.
        try {
          linkSync(aside, path);
        } catch {
          // A third one has taken the place meanwhile; theirs stands, and we go round again to meet it.
        }
      }
      unlinkSync(aside);
    }
    throw new Error(`could not take ${path}: it keeps changing; is another process starting on ${db}?`);
  } finally {
    unlinkSync(temp);
  }
}

/** Opens a store on `db` holding the owner lock: taken before the file is opened, given up once the store is closed. */
export async function openWithOwnerLock<T extends { close(): Promise<void> }>(
  db: string,
  open: (db: string) => Promise<T>,
): Promise<T> {
  const lock = acquireSqliteOwnerLock(db);
  let store: T;
  try {
    store = await open(db);
  } catch (err) {
    lock.release();
    throw err;
  }
  const close = store.close.bind(store);
  store.close = async () => {
    try {
      await close();
    } finally {
      lock.release();
    }
  };
  return store;
}
