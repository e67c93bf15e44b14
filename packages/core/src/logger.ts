// Structured logging over pino: one JSON object per line; injectable so tests and benchmarks can silence or capture it.
import { pino, type DestinationStream } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
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
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return { log: (level, msg, fields) => p[level](fields ?? {}, msg) };
}

/** JSON lines to `write` (default: stdout, in order with the process's other stdout writes). */
export function jsonLogger(minLevel: LogLevel = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  return pinoLogger(minLevel, { write });
}

export const silentLogger: Logger = { log() {} };

/** Keeps every line in memory: for tests that assert on logs. */
export function memoryLogger(): Logger & { lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> = [];
  return { lines, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) };
}
