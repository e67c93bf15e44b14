// SQLite for SqlStore: one better-sqlite3 connection in WAL mode, synchronous=FULL, statements from ./sql.
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { loadMigrations, loadSqlFolder } from '../sql-files.ts';
import type { SqlDriver, SqlExecutor, SqlParams } from '../sql-driver.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SQL = loadSqlFolder(join(here, 'sql'));
const MIGRATIONS = loadMigrations(join(here, 'migrations'));

export interface SqliteOptions {
  /** Milliseconds a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
}

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
  readonly #statements = new Map<string, Database.Statement>();
  readonly #mutex = new Mutex();
  readonly #direct: SqlExecutor;

  constructor(path: string, options: SqliteOptions = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // Durable when answered: every commit is synced (SPEC §1); speed comes from grouping commits.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.db.pragma('cache_size = -65536');
    this.db.pragma('temp_store = MEMORY');
    this.#direct = { all: async (n, p) => this.#all(n, p), run: async (n, p) => this.#run(n, p) };
  }

  #stmt(name: string): Database.Statement {
    let s = this.#statements.get(name);
    if (!s) {
      const sql = SQL[name];
      if (sql === undefined) throw new Error(`no SQL statement named ${name}`);
      s = this.db.prepare(sql);
      this.#statements.set(name, s);
    }
    return s;
  }

  #all<T>(name: string, params?: SqlParams): T[] {
    const s = this.#stmt(name);
    return (s.reader ? s.all(bind(params)) : (s.run(bind(params)), [])) as T[];
  }

  #run(name: string, params?: SqlParams): number {
    const s = this.#stmt(name);
    if (s.reader) return s.all(bind(params)).length;
    return s.run(bind(params)).changes;
  }

  async all<T = Record<string, any>>(name: string, params?: SqlParams): Promise<T[]> {
    const release = await this.#mutex.lock();
    try {
      return this.#all<T>(name, params);
    } finally {
      release();
    }
  }

  async run(name: string, params?: SqlParams): Promise<number> {
    const release = await this.#mutex.lock();
    try {
      return this.#run(name, params);
    } finally {
      release();
    }
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options: { durable?: boolean } = {}): Promise<T> {
    const release = await this.#mutex.lock();
    // A non-durable commit (a claim's lease) appends to the WAL without an fsync; the next FULL commit syncs the
    // WAL with it. A process crash loses nothing either way; an OS crash may lose the lease, never a promise.
    const relaxed = options.durable === false;
    try {
      if (relaxed) this.db.pragma('synchronous = NORMAL');
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.#direct);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      if (relaxed) this.db.pragma('synchronous = FULL');
      release();
    }
  }

  async migrate(): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
      const done = new Set(this.db.prepare('SELECT version FROM schema_migrations').all().map((r: any) => r.version as number));
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        this.db.exec('BEGIN IMMEDIATE');
        try {
          this.db.exec(m.sql);
          this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
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
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      if (this.db.open) this.db.close();
    } finally {
      release();
    }
  }
}
