// Makes SQLite commits durable without blocking the thread that runs SQLite. The connection runs with
// synchronous=NORMAL, so a COMMIT only appends its frames to the WAL (page cache); a caller promised durability then
// awaits `syncTo(generation)`, an fsync of the WAL file on libuv's thread pool. fsync is per file, not per
// descriptor: it flushes every frame written so far, whichever connection wrote it. Commits are numbered
// (`wrote()`); one fsync covers every commit numbered before it started, so concurrent callers share it, and a
// caller whose commit came after the running fsync began waits for the next one.
// Checkpoints stay SQLite's own: with synchronous=NORMAL it syncs the WAL before copying frames into the database
// and the database after, and it only rewrites the WAL from its start after such a checkpoint.
import { close, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);

export class WalSync {
  #fd: number | null = null;
  #written = 0;
  #durable = 0;
  #running: Promise<void> | null = null;
  #closed = false;
  /** fsyncs done, for tests and metrics. */
  syncs = 0;

  constructor(private readonly walPath: string) {}

  /** Call after each commit that wrote; returns its number for syncTo. */
  wrote(): number {
    return ++this.#written;
  }

  /** The number of the latest commit, e.g. to wait for everything a read could have seen. */
  get written(): number {
    return this.#written;
  }

  /** Resolves once commit `generation` (and every one before it) is on disk. */
  async syncTo(generation: number): Promise<void> {
    while (this.#durable < generation) {
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
      if (this.#fd === null) this.#fd = await openAsync(this.walPath, 'r+');
      await fsyncAsync(this.#fd);
      this.syncs++;
      if (covers > this.#durable) this.#durable = covers;
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
