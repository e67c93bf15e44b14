// Structured logging over pino: one JSON object per line; injectable so tests and benchmarks can silence or capture it.
import { type DestinationStream, pino } from 'pino';
import { flatLogLine } from './flat-log-line.ts';
import { BufferedLogDestination } from './log-destination.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /** Writes out the lines a buffered destination still holds; resolves once they are written (stop, tests). */
  flush?(): Promise<void>;
}

let stdoutDestination: BufferedLogDestination | null = null;
/** The process's stdout as one buffered destination, shared by every logger of the process (they write to one fd). */
export function bufferedStdout(): BufferedLogDestination {
  stdoutDestination ??= new BufferedLogDestination(1);
  return stdoutDestination;
}

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

const RANK: Record<LogLevel, number> = { debug: 20, info: 30, warn: 40, error: 50 };
const HEAD: Record<LogLevel, string> = {
  debug: '{"level":"debug"',
  info: '{"level":"info"',
  warn: '{"level":"warn"',
  error: '{"level":"error"',
};

/**
 * A Logger writing pino's JSON lines to `destination` (anything with `write(line)`): `{"level":"info","time":"<ISO>",
 * …fields,"msg":"…"}`. Level names and an ISO time, no pid/hostname, as Hookline's lines have always been.
 * A line whose fields are all flat (the attempt line) is written by flatLogLine, the same text without pino's
 * general serializer; any other goes through pino.
 * A BufferedLogDestination gets warn and error lines written at once, info and debug lines within LOG_FLUSH_MS;
 * `flush()` writes out the rest.
 */
export function pinoLogger(minLevel: LogLevel, destination: DestinationStream | BufferedLogDestination): Logger {
  const p = pino(
    {
      level: minLevel,
      base: null,
      timestamp: isoTimeField,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const min = RANK[minLevel];
  const write = (level: LogLevel, msg: string, fields: Record<string, unknown> | undefined) => {
    if (RANK[level] < min) return;
    const line = flatLogLine(HEAD[level] + isoTimeField(), msg, fields);
    if (line === null) p[level](fields ?? {}, msg);
    else destination.write(line);
  };
  if (!(destination instanceof BufferedLogDestination)) return { log: write };
  return {
    log: (level, msg, fields) => {
      write(level, msg, fields);
      // A warning or an error is what an operator (or a test) is waiting for: it does not wait for the buffer.
      if (level === 'warn' || level === 'error') destination.writeOut();
    },
    flush: () => destination.flush(),
  };
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
