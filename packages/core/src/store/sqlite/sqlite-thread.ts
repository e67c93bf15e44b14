// The SQLite store on its own thread. better-sqlite3 is synchronous: on the event loop every statement, commit and
// checkpoint stops the sends, timers and HTTP answers around it. Here a worker thread owns the connection (and the
// store's parts over it) and the event loop only posts calls and reads answers, so the store's work runs on the
// other core. Same Store contract: every part's every method is forwarded as is, by part (the methods are the part
// modules' own functions, SQLITE_PARTS); the conformance suite runs against both.

import type { EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isFsyncFailure, StorageFatalError, type StoreProblem } from '../storage-fault.ts';
import type { IngestLimits, NewEvent, Store, StorePart } from '../store.ts';
import { type AcceptAnswer, encodeAcceptBatch, resultsOf } from './sqlite-accept-batch.ts';
import type { SqliteOptions } from './sqlite-driver.ts';
import { SQLITE_PARTS } from './sqlite-parts.ts';
import { reviveBuffers, type ThreadAnswer, type ThreadCall, type ThreadFatal } from './sqlite-thread-protocol.ts';

const ENTRY = fileURLToPath(new URL('./sqlite-thread-entry.mjs', import.meta.url));
const CHECKPOINTER = fileURLToPath(new URL('./sqlite-checkpointer.mjs', import.meta.url));
/** The thread's module beside this one: TypeScript in the sources (tests, through tsx), compiled JavaScript in dist/. */
const THREAD_MODULE = `./sqlite-thread-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`;

/** Thrown for calls the thread can no longer answer; its message reads as "storage unavailable" to the API. */
function closedError(why: string): Error {
  return Object.assign(new Error(`database connection is not open: ${why}`), { code: 'SQLITE_CANTOPEN' });
}

export interface SqliteThreadStore extends Store {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the parts are forwarded to the thread at runtime (SQLITE_PARTS); the interface types them.
export class SqliteThreadStore {
  readonly dialect = 'sqlite' as const;
  readonly capsAcrossWorkers = false;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  #nextId = 1;
  #dead: Error | null = null;
  readonly #path: string;
  readonly #options: SqliteOptions;
  #checkpointer: Worker | null = null;
  /** The checkpointer's last error, until a later checkpoint succeeds. */
  #checkpointError: string | null = null;
  /** Set when the store failed for good: a failed fsync, or a thread that died while the store was open. */
  #fatal: StorageFatalError | null = null;
  readonly #fatalListeners: Array<(err: Error) => void> = [];
  #closing = false;
  /** Linux thread ids of the store thread and the checkpointer, as each reports it (benchmarks' per-thread CPU). */
  readonly #tids: { store?: number; checkpointer?: number } = {};

  constructor(path: string, options: SqliteOptions = {}) {
    this.#path = path;
    this.#options = options;
    this.#worker = new Worker(ENTRY, {
      workerData: { module: THREAD_MODULE, path, options: { ...options, externalCheckpoints: true } },
    });
    this.#worker.unref(); // like a plain database handle, an idle store does not keep the process alive
    this.#worker.on('message', (m: ThreadAnswer | ThreadFatal | { tid: number }) => {
      if ('tid' in m) this.#tids.store = m.tid;
      else if ('fatal' in m) this.#failForGood(m.fatal.message);
      else this.#answer(m);
    });
    this.#worker.on('error', (err) => {
      this.#failForGood(`the store thread crashed: ${err.message}`);
      this.#fail(err);
    });
    this.#worker.on('exit', (code) => {
      if (!this.#closing) this.#failForGood(`the store thread exited (${code})`);
      this.#fail(closedError(`the store thread exited (${code})`));
    });
    // Each part: a forwarder per function of its module, bound once here.
    for (const [part, module] of Object.entries(SQLITE_PARTS)) {
      const forwarders: Record<string, unknown> = {};
      for (const method of Object.keys(module))
        forwarders[method] = (...args: unknown[]) => this.#call(part as StorePart, method, args);
      (this as any)[part] = forwarders;
    }
    (this as any).migrate = () => this.#call(null, 'migrate', []);
    const problem = async (): Promise<StoreProblem | null> => {
      if (this.#fatal) return { fatal: true, reason: this.#fatal.message };
      const own = (await this.#call(null, 'problem', [])) as StoreProblem | null;
      if (own) return own;
      return this.#checkpointError ? { fatal: false, reason: `checkpoints fail: ${this.#checkpointError}` } : null;
    };
    this.problem = problem;
    this.ping = async () => (await problem()) === null && ((await this.#call(null, 'ping', [])) as boolean);
    // A batch goes over as one transferred buffer, and comes back as only what the inserts decided: the created
    // results are rebuilt here from the caller's own events (sqlite-accept-batch.ts).
    this.events.acceptEvents = async (events: NewEvent[], limits?: IngestLimits) => {
      const batch = encodeAcceptBatch(events);
      const args = limits ? [batch, limits] : [batch];
      return resultsOf(events, (await this.#call('events', 'acceptEvents', args, [batch])) as AcceptAnswer);
    };
  }

  /** `part` null: a lifecycle method of the store itself. */
  #call(part: StorePart | null, method: string, args: unknown[], transfer?: ArrayBuffer[]): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref(); // an answer is owed: stay alive for it
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ id, part, method, args } satisfies ThreadCall, transfer);
      } catch (err) {
        this.#settled(id);
        reject(err);
      }
    });
  }

  #settled(id: number) {
    const p = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
    return p;
  }

  #answer(m: ThreadAnswer): void {
    const p = this.#settled(m.id);
    if (!p) return;
    if (m.ok) p.resolve(reviveBuffers(m.value));
    else
      p.reject(
        Object.assign(new Error(m.error.message), { name: m.error.name, code: m.error.code, stack: m.error.stack }),
      );
  }

  /** `listener` is called once if the store fails for good (see Store.onFatal). */
  onFatal(listener: (err: Error) => void): void {
    if (this.#fatal) listener(this.#fatal);
    else this.#fatalListeners.push(listener);
  }

  /**
   * The store can no longer promise anything: every call, pending or later, rejects with the fatal error (read as
   * storage unavailable), and the thread is stopped so that no answer still on its way can acknowledge a write.
   */
  #failForGood(reason: string): void {
    if (this.#fatal) return;
    this.#fatal = new StorageFatalError(reason);
    this.#fail(this.#fatal);
    void this.#worker.terminate();
    for (const l of this.#fatalListeners.splice(0)) l(this.#fatal);
  }

  #fail(err: Error): void {
    this.#dead ??= err instanceof Error && (err as { code?: string }).code ? err : closedError(err.message);
    for (const [id, p] of [...this.#pending]) {
      this.#settled(id);
      p.reject(this.#dead);
    }
  }

  /** Stops the store thread abruptly, as a crash would; its exit is then handled like one (fault tests). */
  async crashThread(): Promise<void> {
    await this.#worker.terminate();
  }

  /** The store thread's event-loop utilisation (as performance.eventLoopUtilization), e.g. for benchmarks. */
  threadUtilization(since?: EventLoopUtilization): EventLoopUtilization {
    return this.#worker.performance.eventLoopUtilization(since);
  }

  /**
   * The Linux thread ids (/proc/<pid>/task/<tid>) of the store thread and the checkpointer, once each has started;
   * empty elsewhere. A benchmark reads each thread's CPU time there.
   */
  threadIds(): { store?: number; checkpointer?: number } {
    return { ...this.#tids };
  }

  /** Starts the checkpointer thread (once the database exists in WAL mode, i.e. after migrate). */
  startCheckpointer(intervalMs = 200): void {
    if (this.#checkpointer || this.#dead) return;
    const w = new Worker(CHECKPOINTER, {
      workerData: {
        path: this.#path,
        busyTimeoutMs: this.#options.busyTimeoutMs,
        walLimitBytes: this.#options.walLimitBytes,
        intervalMs,
      },
    });
    w.unref();
    // A failing checkpointer leaves the store correct (the store thread's own automatic checkpoint is the safety
    // valve) but not healthy: readiness reports it until a checkpoint succeeds again. A failed fsync is the exception:
    // the pages it lost may be the WAL's, so the store ends for good, like after a failed fsync of its own.
    w.on('message', (m: { error?: string; code?: string; ok?: boolean; tid?: number } | string) => {
      if (typeof m !== 'object') return;
      if (m.tid !== undefined) this.#tids.checkpointer = m.tid;
      if (m.ok) this.#checkpointError = null;
      else if (m.error !== undefined) {
        this.#checkpointError = m.error;
        if (isFsyncFailure({ code: m.code }))
          this.#failForGood(
            `the checkpointer's fsync failed (${m.error}): nothing written since the last good fsync can be trusted; restart to recover`,
          );
      }
    });
    w.on('error', (err) => (this.#checkpointError = `the checkpointer thread crashed: ${err.message}`));
    this.#checkpointer = w;
  }

  async close(): Promise<void> {
    this.#closing = true;
    // The checkpointer goes even when the store thread already died: it holds a connection to the file too.
    await this.#stopCheckpointer();
    if (this.#dead) return;
    try {
      await this.#call(null, 'close', []);
    } finally {
      this.#dead = closedError('the store is closed');
      await this.#worker.terminate();
    }
  }

  async #stopCheckpointer(): Promise<void> {
    const w = this.#checkpointer;
    if (!w) return;
    this.#checkpointer = null;
    w.ref();
    await new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(done, 2000);
      w.on('message', (m) => m === 'closed' && done());
      w.on('exit', done);
      w.postMessage('close');
    });
    await w.terminate();
  }
}

/** Opens (and migrates) a SQLite file whose connection lives on its own thread. */
export async function openSqliteThreadStore(path: string, options: SqliteOptions = {}): Promise<Store> {
  const store = new SqliteThreadStore(path, options);
  try {
    await store.migrate();
    store.startCheckpointer();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
}
