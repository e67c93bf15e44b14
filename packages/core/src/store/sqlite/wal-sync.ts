// Makes SQLite commits durable without blocking the event loop. The connection runs with synchronous=NORMAL, so a
// COMMIT only appends its frames to the WAL (page cache); a caller promised durability then awaits `sync()`, an
// fsync of the WAL file on libuv's thread pool. fsync is per file, not per descriptor: it flushes every frame
// written so far, whichever connection wrote it. Concurrent callers share one fsync; a caller arriving while one
// is in flight waits for the next, since the running one may have started before its frames were written.
// Checkpoints stay SQLite's own: with synchronous=NORMAL it syncs the WAL before copying frames into the database
// and the database after, and it only rewrites the WAL from its start after such a checkpoint.
import { close, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);

export class WalSync {
  #fd: number | null = null;
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  #closed = false;
  /** fsyncs done, for tests and metrics. */
  syncs = 0;

  constructor(private readonly walPath: string) {}

  /** Resolves once every commit made before the call is on disk. */
  sync(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the SQLite store is closed'));
    if (!this.#running) return this.#start();
    if (!this.#next) {
      const after = this.#running.catch(() => undefined);
      this.#next = after.then(() => {
        this.#next = null;
        return this.#running ?? this.#start();
      });
    }
    return this.#next;
  }

  #start(): Promise<void> {
    const run = this.#fsync().finally(() => {
      if (this.#running === run) this.#running = null;
    });
    this.#running = run;
    return run;
  }

  async #fsync(): Promise<void> {
    // One descriptor for the connection's life: SQLite removes the WAL file only when the last connection to the
    // database closes, and ours is open until close() (which waits for this).
    if (this.#fd === null) this.#fd = await openAsync(this.walPath, 'r+');
    await fsyncAsync(this.#fd);
    this.syncs++;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#next?.catch(() => undefined);
    await this.#running?.catch(() => undefined);
    if (this.#fd !== null) await closeAsync(this.#fd).catch(() => undefined);
    this.#fd = null;
  }
}
