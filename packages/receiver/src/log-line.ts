// The receiver's log line and the logger used when none is given (the handler and the inbox both log through it).
import type { ReceiverErrorCode } from './errors.ts';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  msg: string;
  event_id: string | undefined;
  delivery_id: string | undefined;
  /** `valid`, `missing`, `malformed`, `mismatch`, or `unchecked` when the request failed before it. */
  signature: 'valid' | 'missing' | 'malformed' | 'mismatch' | 'unchecked';
  status?: number;
  code?: ReceiverErrorCode;
  reason?: string;
  [field: string]: unknown;
}

/** Writes one JSON line to stderr. */
export function defaultLogger(line: LogLine): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}
