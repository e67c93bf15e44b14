// Makes SQLite commits durable without blocking the thread that runs SQLite. The connection runs with
// synchronous=NORMAL, so a COMMIT only appends its frames to the WAL (page cache); a caller promised durability then
// awaits `syncTo(generation)`, an fsync of the WAL file on libuv's thread pool. fsync is per file, not per
// descriptor: it flushes every frame written so far, whichever connection wrote it. Commits are numbered
// (`wrote()`); one fsync covers every commit numbered before it started, so concurrent callers share it, and a
// caller whose commit came after the running fsync began waits for the next one.
// The first failed fsync is latched: every later syncTo rejects with it, because a later fsync may succeed although
// the failed pages never reached the disk (see storage-fault.ts).
// Checkpoints stay SQLite's own: with synchronous=NORMAL it syncs the WAL before copying frames into the database
// and the database after, and it only rewrites the WAL from its start after such a checkpoint.
import { close, fsync, open } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { StorageFatalError } from '../storage-fault.ts';

const openAsync = promisify(open);
const fsyncAsync: (fd: number) => Promise<void> = promisify(fsync);
const closeAsync = promisify(close);

export interface WalSyncOptions {
  /** The fsync to use (tests inject a gated or failing one); default fs.fsync on the thread pool. */
  fsync?: (fd: number) => Promise<void>;
  /** Told once, when the first fsync fails. */
  onFailure?: (err: StorageFatalError) => void;
}

export class WalSync {
  #fd: number | null = null;
  #written = 0;
  #durable = 0;
  #running: Promise<void> | null = null;
  #closed = false;
  #failed: StorageFatalError | null = null;
  readonly #fsync: (fd: number) => Promise<void>;
  readonly #onFailure: ((err: StorageFatalError) => void) | undefined;
  /** fsyncs done, for tests and metrics. */
  syncs = 0;

  constructor(
    readonly walPath: string,
    options: WalSyncOptions = {},
  ) {
    this.#fsync = options.fsync ?? fsyncAsync;
    this.#onFailure = options.onFailure;
  }

  /** Call after each commit that wrote; returns its number for syncTo. */
  wrote(): number {
    return ++this.#written;
  }

  /** The number of the latest commit, e.g. to wait for everything a read could have seen. */
  get written(): number {
    return this.#written;
  }

  /** The latched failure, if an fsync ever failed. */
  get failed(): StorageFatalError | null {
    return this.#failed;
  }

  /** Resolves once commit `generation` (and every one before it) is on disk. */
  async syncTo(generation: number): Promise<void> {
    while (this.#durable < generation) {
      if (this.#failed) throw this.#failed;
      if (this.#closed) throw new Error('the SQLite store is closed');
      this.#running ??= this.#round();
      await this.#running;
    }
  }

  async #round(): Promise<void> {
    const covers = this.#written;
    try {
      // One descriptor for the connection's life: SQLite removes the WAL file only when the last connection to
      // the database closes, and ours stays open until close() (which waits for this).
      if (this.#fd === null) {
        this.#fd = await openAsync(this.walPath, 'r+');
        // The WAL's directory entry must be durable too, or a power cut may lose the whole file: once per open.
        const dir = await openAsync(dirname(this.walPath), 'r');
        try {
          await this.#fsync(dir);
        } finally {
          await closeAsync(dir).catch(() => undefined);
        }
      }
      await this.#fsync(this.#fd);
      this.syncs++;
      if (covers > this.#durable) this.#durable = covers;
    } catch (err) {
      if (!this.#failed) {
        this.#failed = new StorageFatalError(
          `fsync of ${this.walPath} failed (${(err as Error).message}): nothing written since the last good fsync can be trusted; restart to recover`,
          { cause: err },
        );
        this.#onFailure?.(this.#failed);
      }
      throw this.#failed;
    } finally {
      this.#running = null;
    }
  }

  async close(): Promise<void> {
    await this.#running?.catch(() => undefined);
    this.#closed = true;
    if (this.#fd !== null) await closeAsync(this.#fd).catch(() => undefined);
    this.#fd = null;
  }
}
