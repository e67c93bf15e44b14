// The receiver's log line and the logger used when none is given (the handler and the inbox both log through it).
import { type ReceiverErrorCode, receiverErrors, StorageUnavailable } from './errors.ts';
import { type HeaderSource, readHeader } from './headers.ts';
import { hooklineHeaderNames } from './signature-hookline.ts';

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

/** The ids a log line names, read from the headers before the signature vouches for them. */
export type LogBase = { event_id: string | undefined; delivery_id: string | undefined };

export function unverifiedIds(headers: HeaderSource): LogBase {
  return {
    event_id:
      readHeader(headers, hooklineHeaderNames.id) ??
      readHeader(headers, 'webhook-id') ??
      readHeader(headers, 'svix-id'),
    delivery_id: readHeader(headers, hooklineHeaderNames.delivery) ?? readHeader(headers, 'webhook-delivery'),
  };
}

/** What a verification failure says about the signature. */
export function signatureResult(code: ReceiverErrorCode): LogLine['signature'] {
  if (code === 'missing_signature') return 'missing';
  if (code === 'malformed_signature') return 'malformed';
  if (code === 'signature_mismatch') return 'mismatch';
  // Timestamps are checked after the signature matched.
  return receiverErrors[code].status === 401 ? 'valid' : 'unchecked';
}

/** An error as a log line's `reason`, with a storage failure's cause. */
export function describe(error: unknown): string {
  if (error instanceof StorageUnavailable && error.cause !== undefined)
    return `${error.message}: ${describe(error.cause)}`;
  return error instanceof Error ? error.message : String(error);
}
