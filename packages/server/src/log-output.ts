// Where the server's log lines go: pino's JSON lines on stdout, or pino-pretty's readable lines when stdout is a terminal.

import { bufferedStdout, jsonLogger, type Logger, type LogLevel, pinoLogger } from '@hookline/core';
import { isColorSupported, prettyFactory } from 'pino-pretty';
import type { LogFormat } from './config.ts';

interface Stdout {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

export function usesPrettyLogs(format: LogFormat, stdout: Stdout): boolean {
  return format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
}

/**
 * The server's logger. JSON lines to the process's own stdout (a pipe, a file: a log collector's) go through a buffered
 * asynchronous destination, so that a line per attempt is not a write per attempt on the event loop
 * (BufferedLogDestination: warnings and errors at once, other lines within 100 ms, the rest at stop and at exit).
 * Pretty lines (a terminal) are rendered synchronously from the JSON line (prettyFactory, not pino-pretty's stream),
 * so a line written just before an exit is not lost and stays in order with the process's other output.
 */
export function serverLogger(level: LogLevel, format: LogFormat, stdout: Stdout = process.stdout): Logger {
  if (!usesPrettyLogs(format, stdout))
    return stdout === process.stdout
      ? pinoLogger(level, bufferedStdout())
      : jsonLogger(level, (line) => stdout.write(line));
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    colorize: stdout.isTTY === true && isColorSupported,
  });
  return pinoLogger(level, { write: (line: string) => stdout.write(prettify(line)) });
}
