// Structured logging over pino: one JSON object per line; injectable so tests and benchmarks can silence or capture it.
import { type DestinationStream, pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
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

/**
 * A Logger writing pino's JSON lines to `destination` (anything with `write(line)`): `{"level":"info","time":"<ISO>",
 * …fields,"msg":"…"}`. Level names and an ISO time, no pid/hostname, as Hookline's lines have always been.
 */
export function pinoLogger(minLevel: LogLevel, destination: DestinationStream): Logger {
  const p = pino(
    {
      level: minLevel,
      base: null,
      timestamp: isoTimeField,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return { log: (level, msg, fields) => p[level](fields ?? {}, msg) };
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
