// A log destination that keeps the writes off the event loop: lines gather in memory and go out in one asynchronous
// write (libuv's thread pool) once LOG_BUFFER_BYTES wait or the oldest waited LOG_FLUSH_MS; what is still held when
// the process exits is written synchronously then (docs/performance.md#logging-off-the-hot-path).
import { mkdirSync, openSync, writeSync, writev } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Lines held until this many bytes wait (one write of many lines instead of a write per line). Each write costs the
 * event loop a hand-off to the thread pool, and on a busy machine that hand-off, not the bytes, was most of what an
 * attempt line cost the drain: 64 KB rather than 16 KB took the write's share from ~6 to ~1.6 µs per attempt
 * (sampled, `npm run bench -- --only drain --profile`).
 */
export const LOG_BUFFER_BYTES = 65_536;
/** The longest a line waits before its write starts. */
export const LOG_FLUSH_MS = 100;
/** Lines are encoded into buffers of this size as they come (a pool of a few, reused). */
const CHUNK = 65_536;

const live = new Set<BufferedLogDestination>();
let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  // A normal exit, process.exit() and an uncaught exception all pass here; a SIGKILL does not (see the class).
  process.on('exit', () => {
    for (const d of live) d.flushSync();
  });
}

/**
 * Why not pino.destination (sonic-boom) with minLength: it measures the byte length of its whole pending text on
 * every line, which cost more CPU per attempt line than the fs.WriteStream it would replace (6.6–8.8 µs against
 * 2.1–3.2 µs, docs/performance.md#logging-off-the-hot-path). Here a line is encoded once into a reused buffer.
 *
 * What a crash loses: a SIGKILL (or the machine stopping) loses the lines held (at most LOG_FLUSH_MS of them, and
 * about LOG_BUFFER_BYTES when lines come faster) and the write under way; an exit of any other kind loses nothing
 * but a write already under way in the thread pool if the exit comes before it ends.
 */
export class BufferedLogDestination {
  readonly #fd: number;
  /** The lines held, encoded as they come into a buffer of the pool (no string is kept alive past its line). */
  #buf: Buffer;
  #used = 0;
  /** Full buffers (and lines too long for one) waiting for the next write, in order. */
  #queued: Buffer[] = [];
  #queuedBytes = 0;
  /** Buffers of CHUNK bytes free for reuse once their write ended. */
  #pool: Buffer[] = [];
  #writing = false;
  /** Write again as soon as the write under way ends (a warning, a flush, the timer found a write under way). */
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #waiters: Array<() => void> = [];

  /** `dest`: a file descriptor (1: stdout) or a file path (appended to, its folder made). */
  constructor(dest: number | string) {
    if (typeof dest === 'number') this.#fd = dest;
    else {
      mkdirSync(dirname(dest), { recursive: true });
      this.#fd = openSync(dest, 'a');
    }
    this.#buf = Buffer.allocUnsafeSlow(CHUNK);
    live.add(this);
    hookExit();
  }

  get #held(): number {
    return this.#queuedBytes + this.#used;
  }

  /** pino's destination interface: a line, held. */
  write(line: string): boolean {
    // At most 3 bytes of UTF-8 per UTF-16 unit: a line that may not fit closes this buffer first.
    if (line.length * 3 > CHUNK - this.#used) {
      this.#queue();
      if (line.length * 3 > CHUNK) {
        const big = Buffer.from(line);
        this.#queued.push(big);
        this.#queuedBytes += big.length;
      }
    }
    if (line.length * 3 <= CHUNK - this.#used) this.#used += this.#buf.write(line, this.#used);
    if (this.#held >= LOG_BUFFER_BYTES) this.writeOut();
    else if (this.#timer === null) {
      this.#timer = setTimeout(() => this.writeOut(), LOG_FLUSH_MS);
      this.#timer.unref();
    }
    return true;
  }

  /** Starts writing everything held now (a warning an operator waits for), or as soon as the write under way ends. */
  writeOut(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#writing) this.#again = true;
    else if (this.#held > 0) this.#start();
    else this.#settle();
  }

  /** Resolves once every line written before the call is written. */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.writeOut();
    });
  }

  /** Writes what is held synchronously (at exit); a write under way in the thread pool is left to end. */
  flushSync(): void {
    this.#queue();
    for (const b of this.#queued.splice(0)) {
      for (let at = 0; at < b.length; ) {
        try {
          at += writeSync(this.#fd, b, at);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
      }
    }
    this.#queuedBytes = 0;
  }

  /** The current buffer joins the queue; a fresh one takes its place. */
  #queue(): void {
    if (this.#used === 0) return;
    this.#queued.push(this.#buf.subarray(0, this.#used));
    this.#queuedBytes += this.#used;
    this.#buf = this.#pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    this.#used = 0;
  }

  #start(): void {
    this.#writing = true;
    this.#again = false;
    this.#queue();
    const chunks = this.#queued;
    this.#queued = [];
    this.#queuedBytes = 0;
    this.#send(chunks);
  }

  #send(chunks: Buffer[]): void {
    writev(this.#fd, chunks, null, (err, n) => {
      if (err && (err as NodeJS.ErrnoException).code === 'EAGAIN') {
        // A full pipe (a slow reader): the same bytes again shortly; lines keep gathering meanwhile.
        setTimeout(() => this.#send(chunks), 10).unref();
        return;
      }
      // Another error (a closed pipe, a full disk) drops these lines: logging must not stop the process.
      if (!err) {
        const rest = unwritten(chunks, n);
        if (rest.length > 0) return this.#send(rest);
      }
      for (const c of chunks)
        if (c.buffer.byteLength === CHUNK && this.#pool.length < 4) this.#pool.push(Buffer.from(c.buffer));
      this.#writing = false;
      if (this.#held > 0 && (this.#again || this.#held >= LOG_BUFFER_BYTES || this.#waiters.length > 0)) this.#start();
      else this.#settle();
    });
  }

  #settle(): void {
    if (this.#writing || this.#held > 0) return;
    for (const w of this.#waiters.splice(0)) w();
  }
}

/** What a short write of `n` bytes left of `chunks`. */
function unwritten(chunks: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < chunks.length && n >= chunks[i].length) n -= chunks[i++].length;
  if (i === chunks.length) return [];
  return [chunks[i].subarray(n), ...chunks.slice(i + 1)];
}
