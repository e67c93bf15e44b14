// Structured logging over pino: one JSON object per line; injectable so tests and benchmarks can silence or capture it.
import { type DestinationStream, pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /** Writes out the lines a buffered destination still holds; resolves once they are written (stop, tests). */
  flush?(): Promise<void>;
}

/**
 * A buffered destination writes once this many bytes of lines wait (one asynchronous write of many lines instead of
 * a synchronous write per line, docs/performance.md#logging-off-the-hot-path); below it, after LOG_FLUSH_MS.
 */
export const LOG_BUFFER_BYTES = 8192;
/** The longest an info or debug line waits in a buffered destination before its write starts. */
export const LOG_FLUSH_MS = 100;

/**
 * pino's asynchronous destination (sonic-boom, `sync: false`) on a file descriptor or a file path (appended to):
 * lines gather in memory and go out in writes of LOG_BUFFER_BYTES on libuv's thread pool, off the event loop. pino
 * writes what is left synchronously when the process exits (normally, by process.exit or an uncaught exception); a
 * SIGKILL or a crash of the machine loses what was waiting: at most LOG_FLUSH_MS of info lines, and about
 * LOG_BUFFER_BYTES when lines come faster (plus, if the disk or pipe is slower than the lines, the backlog).
 */
export function bufferedLogDestination(dest: number | string): BufferedDestination {
  const d = pino.destination({ dest, minLength: LOG_BUFFER_BYTES, sync: false, mkdir: typeof dest === 'string' });
  BUFFERED.add(d);
  return d;
}

export type BufferedDestination = ReturnType<typeof pino.destination>;
const BUFFERED = new WeakSet<object>();

let second = NaN;
let secondText = '';

/**
 * pino's `timestamp` field as an ISO 8601 UTC time, like pino.stdTimeFunctions.isoTime but without a toISOString per
 * line: the text up to the second is reused within that second (it is most of the cost of a log line).
 */
export function isoTimeField(now = Date.now()): string {
  const s = Math.floor(now / 1000);
  if (s !== second) {
    const iso = new Date(s * 1000).toISOString();
    secondText = iso.slice(0, iso.length - 4); // through the '.' before the milliseconds
    second = s;
  }
  const ms = now - s * 1000;
  return `,"time":"${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/**
 * A Logger writing pino's JSON lines to `destination` (anything with `write(line)`): `{"level":"info","time":"<ISO>",
 * …fields,"msg":"…"}`. Level names and an ISO time, no pid/hostname, as Hookline's lines have always been.
 * A buffered destination (bufferedLogDestination) gets warn and error lines written at once, and info and debug lines
 * within LOG_FLUSH_MS; `flush()` writes out the rest.
 */
export function pinoLogger(minLevel: LogLevel, destination: DestinationStream | BufferedDestination): Logger {
  const p = pino(
    {
      level: minLevel,
      base: null,
      timestamp: isoTimeField,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  if (!isBuffered(destination)) return { log: (level, msg, fields) => p[level](fields ?? {}, msg) };
  const buffered = destination;
  // sonic-boom's own flush may leave up to minLength bytes behind when a write is in flight (it calls back on that
  // write's 'drain'): what is still held and whether a write is under way are read from its state instead.
  const state = buffered as unknown as { _len: number; _writing: boolean; destroyed: boolean };
  let timer: NodeJS.Timeout | null = null;
  let awaitingDrain = false;
  const afterWrite = (then: () => void) => {
    if (awaitingDrain) return;
    awaitingDrain = true;
    const done = () => {
      awaitingDrain = false;
      buffered.off('drain', done).off('ready', done).off('error', done);
      then();
    };
    // 'ready': a file being opened counts as a write under way, and its opening ends without a 'drain'.
    buffered.once('drain', done).once('ready', done).once('error', done);
  };
  /** Starts the write of everything held; if one is under way, again once it ends. */
  const writeOut = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (state.destroyed || state._len === 0) return;
    if (state._writing) afterWrite(writeOut);
    else buffered.flush();
  };
  return {
    log: (level, msg, fields) => {
      p[level](fields ?? {}, msg);
      // A warning or an error is what an operator (or a test) is waiting for: it does not wait for the buffer.
      if (level === 'warn' || level === 'error') writeOut();
      else if (timer === null) (timer = setTimeout(writeOut, LOG_FLUSH_MS)).unref();
    },
    flush: () =>
      new Promise<void>((resolve) => {
        if (timer) clearTimeout(timer);
        timer = null;
        const step = () => {
          if (state.destroyed || (state._len === 0 && !state._writing)) return resolve();
          if (!state._writing) buffered.flush();
          if (state._writing) afterWrite(step);
          else resolve();
        };
        step();
      }),
  };
}

function isBuffered(d: DestinationStream | BufferedDestination): d is BufferedDestination {
  return BUFFERED.has(d);
}

/** JSON lines to `write` (default: stdout, in order with the process's other stdout writes). */
export function jsonLogger(
  minLevel: LogLevel = 'info',
  write: (line: string) => void = (l) => process.stdout.write(l),
): Logger {
  return pinoLogger(minLevel, { write });
}

export const silentLogger: Logger = { log() {} };

/** Keeps every line in memory: for tests that assert on logs. */
export function memoryLogger(): Logger & { lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> = [];
  return { lines, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) };
}
