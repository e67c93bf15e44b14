// PostgreSQL for the store: a pg Pool, statements from ../sql and ./sql converted to `$n` once, advisory-locked migrations,
// transactions that retry on deadlocks and lost connections, and LISTEN/NOTIFY to wake idle workers at once.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlParams } from '../sql-driver.ts';
import { loadStatements } from '../sql-files.ts';
import { migrate } from './migrate.ts';
import { type PositionalStatement, toPositional } from './named-params.ts';
import { isConflict, isConnectionError } from './postgres-errors.ts';

const here = dirname(fileURLToPath(import.meta.url));
const STATEMENTS: Record<string, PositionalStatement> = Object.fromEntries(
  Object.entries(loadStatements(join(here, 'sql'))).map(([name, sql]) => [name, toPositional(sql)]),
);

/** The channel a commit that made work due notifies; every process's listener wakes its dispatcher. */
export const DUE_CHANNEL = 'hookline_due';

/** Statements that can make deliveries due now: a transaction that changed rows with one of them notifies. */
const MAKES_DUE = new Set([
  'insert-delivery',
  'insert-deliveries',
  'schedule-window-replay',
  'schedule-single-replay',
  'release-held-endpoint',
  'release-held-tenant',
  'retry-delivery',
  'retry-endpoint-deliveries',
  'release-expired-leases',
  'release-all-leases',
]);

export interface PostgresOptions {
  /** Connections in this process's pool (default 10). */
  poolMax?: number;
  /** Any statement running longer is cancelled by the server (default 10 s). */
  statementTimeoutMs?: number;
  /** Connections of the separate pool the API's event searches read on (default 2), made at the first search. */
  searchPoolMax?: number;
  /** A search statement running longer is cancelled (default 5 s): a search never holds a connection for long. */
  searchStatementTimeoutMs?: number;
  /** How long a checkout waits for a free or new connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Schema for every table (default: the server's search_path, normally `public`); tests use one per store. */
  schema?: string;
  /** Shown in pg_stat_activity (default `hookline`). */
  applicationName?: string;
  /** Listen for due work (default true); a process that only ingests can turn it off. */
  listen?: boolean;
  /** Errors the driver survives (listener drops, idle connections cut); default: ignored. */
  onError?: (err: Error, where: string) => void;
}

const INT8_OID = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bind(stmt: PositionalStatement, params: SqlParams | undefined): unknown[] {
  return stmt.names.map((name) => {
    const v = params?.[name];
    if (v === undefined) return null;
    if (typeof v === 'boolean') return v ? 1 : 0;
    return v; // arrays go as PostgreSQL arrays, Buffers as bytea
  });
}

function statement(name: string): PositionalStatement {
  const s = STATEMENTS[name];
  if (s === undefined) throw new Error(`no SQL statement named ${name}`);
  return s;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly #o: PostgresOptions;
  readonly #clientConfig: pg.ClientConfig;
  readonly #dueCallbacks = new Set<() => void>();
  #searchPool: pg.Pool | null = null;
  #searchReader: SqlExecutor | null = null;
  #listener: pg.Client | null = null;
  #listening = false;
  #closed = false;
  #reconnects = 0;

  constructor(url: string, options: PostgresOptions = {}) {
    this.#o = options;
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema))
      throw new Error(`invalid schema name ${options.schema}`);
    this.#clientConfig = {
      connectionString: url,
      application_name: options.applicationName ?? 'hookline',
      statement_timeout: options.statementTimeoutMs ?? 10_000,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      keepAlive: true,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      // BIGINT millisecond times and counts as numbers, for this pool only (not pg.types globally).
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8_OID && format !== 'binary'
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    };
    this.pool = new pg.Pool({ ...this.#clientConfig, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 });
    // An idle connection cut by the server (restart, pg_terminate_backend) is dropped by the pool; the next
    // checkout opens a fresh one. Without a listener the error would end the process.
    this.pool.on('error', (err) => this.#o.onError?.(err, 'idle connection'));
    // Every connection keeps a listener for its whole life: after a server crash, a connection already released as
    // broken (by pool.query or a transaction) can still receive the server's last message ("terminating connection
    // due to unexpected postmaster exit") as an 'error' event, which unheard would end the process. The failure is
    // seen where it matters anyway: by the query that was running, and by the pool for idle connections.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  /** The API's searches read on their own small pool: a slow search queues behind searches, never behind delivery. */
  get search(): SqlExecutor {
    if (this.#searchPool === null) {
      const pool = new pg.Pool({
        ...this.#clientConfig,
        statement_timeout: this.#o.searchStatementTimeoutMs ?? 5_000,
        application_name: `${this.#o.applicationName ?? 'hookline'}-search`,
        max: this.#o.searchPoolMax ?? 2,
        idleTimeoutMillis: 30_000,
      });
      pool.on('error', (err) => this.#o.onError?.(err, 'idle search connection'));
      pool.on('connect', (client) => client.on('error', () => {}));
      this.#searchPool = pool;
      this.#searchReader = {
        all: async <T>(name: string, params?: SqlParams) => (await this.#query(pool, name, params)).rows as T[],
        run: async (name: string, params?: SqlParams) => (await this.#query(pool, name, params)).rowCount ?? 0,
      };
    }
    return this.#searchReader as SqlExecutor;
  }

  /** Connections this process holds (total, idle, waiting checkouts): worth exporting as metrics. */
  get connections(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  /** How many times the due-listener had to reconnect. */
  get listenerReconnects(): number {
    return this.#reconnects;
  }

  async #query<T>(q: Queryable, name: string, params: SqlParams | undefined): Promise<pg.QueryResult<any>> {
    const s = statement(name);
    return q.query<any>({ text: s.text, values: bind(s, params) }) as Promise<pg.QueryResult<T & pg.QueryResultRow>>;
  }

  /**
   * Outside a transaction: reads retry on a fresh connection when theirs was cut; writes report that error. A
   * statement PostgreSQL picked as a deadlock victim (or a serialization failure) was rolled back whole, so it
   * runs again, read or write: a cascading delete racing a batch finish is one such statement.
   */
  async #auto(name: string, params: SqlParams | undefined): Promise<pg.QueryResult<any>> {
    const read = /^\s*SELECT\b/i.test(statement(name).text.replace(/^\s*--.*$/gm, ''));
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await this.#query(this.pool, name, params);
        if (MAKES_DUE.has(name) && (r.rowCount ?? 0) > 0) await this.#notify(this.pool);
        return r;
      } catch (err) {
        if (read && attempt < 3 && isConnectionError(err)) {
          await sleep(100 * attempt);
          continue;
        }
        if (attempt < 5 && isConflict(err)) {
          await sleep(50 * 2 ** attempt * (0.5 + Math.random()));
          continue;
        }
        throw err;
      }
    }
  }

  async #notify(q: Queryable): Promise<void> {
    await q.query(`SELECT pg_notify('${DUE_CHANNEL}', '')`);
  }

  async all<T = Record<string, any>>(name: string, params?: SqlParams): Promise<T[]> {
    return (await this.#auto(name, params)).rows as T[];
  }

  async run(name: string, params?: SqlParams): Promise<number> {
    return (await this.#auto(name, params)).rowCount ?? 0;
  }

  /**
   * BEGIN … COMMIT on one pooled connection; COMMIT returns once PostgreSQL has made it durable
   * (synchronous_commit on). A deadlock, or a connection lost before COMMIT was sent, rolls everything back, so
   * `fn` runs again on a fresh connection. A connection lost during COMMIT leaves the outcome unknown: that error
   * is thrown (callers retry idempotently or answer 503).
   */
  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        if (attempt < 5 && isConnectionError(err)) {
          await sleep(100 * 2 ** attempt);
          continue;
        }
        throw err;
      }
      let connectionError: unknown = null;
      const onError = (err: Error) => {
        connectionError = err;
      };
      client.on('error', onError);
      let committing = false;
      let makesDue = false;
      try {
        await client.query('BEGIN');
        const tx: SqlExecutor = {
          all: async <R>(name: string, params?: SqlParams) => {
            const r = await this.#query(client, name, params);
            if (MAKES_DUE.has(name) && (r.rowCount ?? 0) > 0) makesDue = true;
            return r.rows as R[];
          },
          run: async (name: string, params?: SqlParams) => {
            const r = await this.#query(client, name, params);
            if (MAKES_DUE.has(name) && (r.rowCount ?? 0) > 0) makesDue = true;
            return r.rowCount ?? 0;
          },
        };
        const result = await fn(tx);
        // Delivered to listeners only when the transaction commits; several in one transaction fold into one.
        if (makesDue) await this.#notify(client);
        committing = true;
        await client.query('COMMIT');
        client.off('error', onError);
        client.release();
        return result;
      } catch (err) {
        let broken = connectionError !== null || isConnectionError(err);
        if (!broken) {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
        }
        client.off('error', onError);
        client.release(broken ? (err instanceof Error ? err : new Error(String(err))) : undefined);
        const retry = isConflict(err) || (broken && !committing);
        if (retry && attempt < 5) {
          await sleep(50 * 2 ** attempt * (0.5 + Math.random()));
          continue;
        }
        throw err;
      }
    }
  }

  /** Applies the migrations and the function files (./migrate.ts): concurrent processes migrate once. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    const onError = () => {};
    client.on('error', onError);
    try {
      await migrate(client, this.#o.schema);
    } finally {
      client.off('error', onError);
      client.release();
    }
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Calls `cb` whenever another (or this) process commits due work, and once after each listener reconnect
   * (notifications sent while it was away are lost, so the dispatcher should look). Returns the unsubscribe.
   */
  onDue(cb: () => void): () => void {
    this.#dueCallbacks.add(cb);
    if (!this.#listening && this.#o.listen !== false) {
      this.#listening = true;
      void this.#listen(0);
    }
    return () => this.#dueCallbacks.delete(cb);
  }

  #fireDue(): void {
    for (const cb of this.#dueCallbacks) {
      try {
        cb();
      } catch (err) {
        this.#o.onError?.(err as Error, 'due callback');
      }
    }
  }

  /** One dedicated connection LISTENs; when it drops it reconnects with backoff (250 ms doubling to 5 s). */
  async #listen(failures: number): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.#clientConfig);
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.#listener === client) this.#listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.#closed) return;
      if (err) this.#o.onError?.(err, 'due listener');
      this.#reconnects++;
      setTimeout(() => void this.#listen(failures + 1), Math.min(5000, 250 * 2 ** Math.min(failures, 5))).unref();
    };
    client.on('error', (err) => drop(err));
    client.on('end', () => drop());
    client.on('notification', (msg) => {
      if (msg.channel === DUE_CHANNEL) this.#fireDue();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DUE_CHANNEL}`);
      if (this.#closed) {
        dropped = true;
        await client.end().catch(() => {});
        return;
      }
      this.#listener = client;
      failures = 0;
      // Anything committed while no listener was connected went unheard: look now.
      this.#fireDue();
    } catch (err) {
      drop(err as Error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#dueCallbacks.clear();
    const l = this.#listener;
    this.#listener = null;
    if (l) {
      l.removeAllListeners('end');
      l.removeAllListeners('error');
      l.on('error', () => {});
      await l.end().catch(() => {});
    }
    await this.#searchPool?.end();
    await this.pool.end();
  }
}
