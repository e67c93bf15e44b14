// Structured logging: one JSON object per line; injectable so tests and benchmarks can silence or capture it.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function jsonLogger(minLevel: LogLevel = 'info', write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const min = ORDER[minLevel];
  return {
    log(level, msg, fields) {
      if (ORDER[level] < min) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
    },
  };
}

export const silentLogger: Logger = { log() {} };

/** Keeps every line in memory: for tests that assert on logs. */
export function memoryLogger(): Logger & { lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: LogLevel; msg: string } & Record<string, unknown>> = [];
  return { lines, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) };
}
