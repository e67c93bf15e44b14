// SQLite for the store: one better-sqlite3 connection in WAL mode, statements from ../sql and ./sql. Commits are made durable
// by an fsync of the WAL off the event loop (./wal-sync.ts) before a durable write's promise resolves. A failed fsync
// ends the driver for good (every later call rejects); a full disk only fails writes until space returns.

import { mkdirSync, realpathSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { SqlDriver, SqlExecutor, SqlParams } from '../sql-driver.ts';
import { loadMigrations, loadStatements } from '../sql-files.ts';
import {
  isDiskFull,
  isFsyncFailure,
  isStorageWriteError,
  StorageFatalError,
  type StoreProblem,
} from '../storage-fault.ts';
import { type RowMaker, rowMaker } from './row-maker.ts';
import { WalSync } from './wal-sync.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SQL = loadStatements(join(here, 'sql'));
const MIGRATIONS = loadMigrations(join(here, 'migrations'));

export interface SqliteOptions {
  /** Milliseconds a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
  /** SQLite's page cache for this connection, in MB (default 16: the hot pages are recent ones; the OS caches the rest). */
  cacheMb?: number;
  /** Another connection checkpoints the WAL (the store thread's checkpointer); only a very large WAL triggers one here. */
  externalCheckpoints?: boolean;
  /** Below this much free space on the database's file system the store reports itself not ready (default 1 MiB). */
  minFreeBytes?: number;
  /** The WAL is truncated back to this size after a checkpoint resets it (default 16 MiB). */
  walLimitBytes?: number;
  /** Tests only: the fsync WalSync uses (gated, slow or failing). Not passable to a store thread. */
  walFsync?: (fd: number) => Promise<void>;
}

export const DEFAULT_WAL_LIMIT_BYTES = 16 * 1024 * 1024;
const DEFAULT_MIN_FREE_BYTES = 1024 * 1024;
/** The maker of a statement that returns no rows: never called. */
const noRows: RowMaker = () => {
  throw new Error('this statement returns no rows');
};

/** Serialises access to the one connection: a transaction's statements must not interleave with others'. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #locked = false;
  get locked(): boolean {
    return this.#locked;
  }
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => {
      this.#locked = true;
      return () => {
        this.#locked = false;
        release();
      };
    });
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

function bind(params: SqlParams | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!params) return out;
  for (const key in params) {
    const v = params[key];
    if (v === undefined) out[key] = null;
    else if (typeof v === 'boolean') out[key] = v ? 1 : 0;
    else if (Array.isArray(v)) out[key] = JSON.stringify(v);
    else out[key] = v;
  }
  return out;
}

export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly db: Database.Database;
  /** Prepared once each; a statement that returns rows with the maker of its row objects (row-maker.ts). */
  readonly #statements = new Map<string, { s: Database.Statement; make: RowMaker }>();
  readonly #mutex = new Mutex();
  readonly #direct: SqlExecutor;
  /** null for an in-memory database, which has nothing to sync. */
  readonly #wal: WalSync | null;
  /** Rows changed by this connection's statements so far: a commit that changed none needs no fsync. */
  #changed = 0;
  /** Set once, by the first failed fsync (ours or SQLite's): every call after it rejects with it. */
  #fatal: StorageFatalError | null = null;
  readonly #fatalListeners: Array<(err: StorageFatalError) => void> = [];
  /** The last write failed for want of space or by an I/O error; cleared by the next write that succeeds. */
  #writeProblem: Error | null = null;
  readonly #dir: string | null;
  readonly #minFreeBytes: number;

  constructor(path: string, options: SqliteOptions = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    // SQLite follows a symlinked path to the real file and keeps its WAL beside that file: sync that one.
    const real = path === ':memory:' ? null : realpathSync(path);
    this.#dir = real === null ? null : dirname(real);
    this.#minFreeBytes = options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES;
    this.db.pragma('journal_mode = WAL');
    // A checkpoint that resets the WAL also truncates it to this size: a burst does not leave a huge file behind.
    this.db.pragma(`journal_size_limit = ${options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES}`);
    // Durable when answered (docs/rules.md#accepted-on-disk), but not by SQLite's own fsync on the event loop: a commit appends to the WAL
    // and the writes that promised durability await WalSync, an fsync in libuv's thread pool shared by every commit
    // made meanwhile. synchronous=NORMAL keeps SQLite's syncs around checkpoints.
    this.db.pragma('synchronous = NORMAL');
    this.#wal =
      real === null
        ? null
        : new WalSync(`${real}-wal`, { fsync: options.walFsync, onFailure: (err) => this.#latch(err) });
    this.db.pragma('foreign_keys = ON');
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.db.pragma(`cache_size = -${(options.cacheMb ?? 16) * 1024}`);
    // On a store thread a checkpointer thread of its own copies the WAL into the database (sqlite-checkpointer.mjs),
    // so this connection's commits never stop for one; its own automatic checkpoint stays as a far safety valve.
    if (options.externalCheckpoints)
      this.db.pragma(
        `wal_autocheckpoint = ${Math.max(1000, Math.ceil((2 * (options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES)) / 4096))}`,
      );
    this.db.pragma('temp_store = MEMORY');
    this.#direct = { all: async (n, p) => this.#all(n, p), run: async (n, p) => this.#run(n, p) };
  }

  /** The WAL file WalSync fsyncs (null in memory). */
  get walPath(): string | null {
    return this.#wal?.walPath ?? null;
  }

  /** `listener` is called once if the driver fails for good; the process should then exit and recover. */
  onFatal(listener: (err: StorageFatalError) => void): void {
    if (this.#fatal) listener(this.#fatal);
    else this.#fatalListeners.push(listener);
  }

  #latch(err: unknown): StorageFatalError {
    if (this.#fatal) return this.#fatal;
    this.#fatal =
      err instanceof StorageFatalError
        ? err
        : new StorageFatalError(`SQLite could not sync the database (${(err as Error).message}); restart to recover`, {
            cause: err,
          });
    for (const l of this.#fatalListeners.splice(0)) l(this.#fatal);
    return this.#fatal;
  }

  /** Sorts a failed call: a failed fsync latches; a full disk or write error is remembered until a write succeeds. */
  #failed(err: unknown): unknown {
    if (isFsyncFailure(err)) return this.#latch(err);
    if (isStorageWriteError(err)) this.#writeProblem = err as Error;
    return err;
  }

  #refuseIfFailed(): void {
    if (this.#fatal) throw this.#fatal;
  }

  #stmt(name: string): { s: Database.Statement; make: RowMaker } {
    let p = this.#statements.get(name);
    if (!p) {
      const sql = SQL[name];
      if (sql === undefined) throw new Error(`no SQL statement named ${name}`);
      const s = this.db.prepare(sql);
      // A statement that returns rows returns them as arrays, made into objects by its own row maker.
      p = {
        s,
        make: s.reader
          ? rowMaker(
              s
                .raw(true)
                .columns()
                .map((c) => c.name),
            )
          : noRows,
      };
      this.#statements.set(name, p);
    }
    return p;
  }

  #all<T>(name: string, params?: SqlParams): T[] {
    const { s, make } = this.#stmt(name);
    if (!s.reader) {
      this.#changed += s.run(bind(params)).changes;
      return [];
    }
    const rows = s.all(bind(params)) as unknown[][];
    const out = new Array<T>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = make(rows[i]) as T;
    if (!s.readonly) this.#changed += rows.length; // INSERT/UPDATE/DELETE … RETURNING: one row per changed row
    return out;
  }

  #run(name: string, params?: SqlParams): number {
    const { s } = this.#stmt(name);
    const n = s.reader ? s.all(bind(params)).length : s.run(bind(params)).changes;
    if (!s.readonly) this.#changed += n;
    return n;
  }

  /**
   * Inside a transaction of this driver (its executor's caller holds the connection): one prepared statement run once
   * per parameter set, with no await, no JSON and no copy of the parameters between rows; the rows each run returned
   * (RETURNING), in order. Each set binds as it is: every named parameter present, no undefined, booleans or arrays.
   * For a batch whose rows would otherwise go through json_each: a prepared statement bound per row is cheaper for
   * SQLite than extracting each field of each element from JSON text (docs/performance.md).
   */
  eachRow<T = Record<string, any>>(name: string, sets: readonly SqlParams[]): T[] {
    this.#refuseIfFailed();
    const { s, make } = this.#stmt(name);
    const out: T[] = [];
    let changed = 0;
    try {
      if (s.reader) {
        for (const p of sets) {
          const r = s.get(p) as unknown[] | undefined;
          if (r !== undefined) {
            out.push(make(r) as T);
            changed++;
          }
        }
      } else for (const p of sets) changed += s.run(p).changes;
    } catch (err) {
      throw this.#failed(err);
    } finally {
      if (!s.readonly) this.#changed += changed;
    }
    return out;
  }

  /** A statement outside a transaction commits on its own; if it wrote, its caller waits until that is on disk. */
  async all<T = Record<string, any>>(name: string, params?: SqlParams): Promise<T[]> {
    this.#refuseIfFailed();
    const release = await this.#mutex.lock();
    const before = this.#changed;
    let rows: T[];
    try {
      this.#refuseIfFailed();
      rows = this.#all<T>(name, params);
    } catch (err) {
      throw this.#failed(err);
    } finally {
      release();
    }
    if (this.#changed !== before) await this.#wrote();
    return rows;
  }

  async run(name: string, params?: SqlParams): Promise<number> {
    this.#refuseIfFailed();
    const release = await this.#mutex.lock();
    let changes: number;
    try {
      this.#refuseIfFailed();
      changes = this.#run(name, params);
    } catch (err) {
      throw this.#failed(err);
    } finally {
      release();
    }
    if (changes > 0) await this.#wrote();
    return changes;
  }

  /** A commit that wrote: resolves once it is on disk. */
  async #wrote(): Promise<void> {
    if (this.#wal) await this.#wal.syncTo(this.#wal.wrote());
    this.#writeProblem = null;
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options: { durable?: boolean } = {}): Promise<T> {
    this.#refuseIfFailed();
    const release = await this.#mutex.lock();
    let result: T;
    // Everything this transaction can read was committed by then; see below.
    const seen = this.#wal?.written ?? 0;
    let changed = false;
    try {
      this.#refuseIfFailed();
      const before = this.#changed;
      this.db.exec('BEGIN IMMEDIATE');
      try {
        result = await fn(this.#direct);
        changed = this.#changed !== before;
        this.db.exec('COMMIT');
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw this.#failed(err);
      }
    } finally {
      // The connection is free as soon as the commit is in the WAL: the next transaction runs while this one syncs.
      release();
    }
    if (!this.#wal) return result;
    if (options.durable !== false) {
      await this.#wal.syncTo(changed ? this.#wal.wrote() : seen);
      if (changed) this.#writeProblem = null;
    } else {
      // A non-durable commit (a claim's lease) is not itself waited for: a process crash loses nothing (the WAL is
      // written), an OS crash may lose the lease, never a promise; the next fsync covers it anyway. But what it
      // read must be durable before it is acted on: a claimed event whose accepting commit is still syncing would
      // otherwise be sent before its 202 was.
      if (changed) this.#wal.wrote();
      await this.#wal.syncTo(seen);
    }
    return result;
  }

  async migrate(): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      const done = new Set(
        this.db
          .prepare('SELECT version FROM schema_migrations')
          .all()
          .map((r: any) => r.version as number),
      );
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        this.db.exec('BEGIN IMMEDIATE');
        try {
          this.db.exec(m.sql);
          this.db
            .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
            .run(m.version, m.name, Date.now());
          this.db.exec('COMMIT');
        } catch (err) {
          this.db.exec('ROLLBACK');
          throw new Error(`migration ${m.version}_${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
      }
    } finally {
      release();
    }
  }

  async ping(): Promise<boolean> {
    if ((await this.problem()) !== null) return false;
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Why the store cannot take writes now, or null. A full file system (below minFreeBytes) is one; so is a last write
   * that failed, until a small probe write (a settings row) gets through again, so readiness comes back by itself
   * once space returns even when no traffic arrives meanwhile.
   */
  async problem(): Promise<StoreProblem | null> {
    if (this.#fatal) return { fatal: true, reason: this.#fatal.message };
    if (!this.db.open) return { fatal: true, reason: 'the database is closed' };
    if (this.#dir !== null) {
      const fs = await statfs(this.#dir).catch(() => null);
      const free = fs ? fs.bavail * fs.bsize : Number.POSITIVE_INFINITY;
      if (free < this.#minFreeBytes)
        return { fatal: false, reason: `disk full: ${free} bytes free where the database lives (${this.#dir})` };
    }
    if (this.#writeProblem) {
      try {
        await this.run('set-setting', { key: 'store_probe', value: String(Date.now()) });
      } catch (err) {
        const fatal = this.#fatal as StorageFatalError | null; // the probe itself may have latched it
        if (fatal) return { fatal: true, reason: fatal.message };
        return { fatal: false, reason: `${isDiskFull(err) ? 'disk full' : 'writes fail'}: ${(err as Error).message}` };
      }
    }
    return null;
  }

  async close(): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      await this.#wal?.close();
      if (this.db.open) this.db.close();
    } finally {
      release();
    }
  }
}
