// The one catalog of receiver error codes: HTTP status and plain message per code.

/**
 * Every code the receiver can answer or log with. `{path}` / `{detail}` in a message are
 * filled in by `receiverError()`.
 *
 * @example
 * receiverErrors.signature_mismatch // { status: 401, message: 'signature mismatch' }
 */
export const receiverErrors = Object.freeze({
  missing_signature: { status: 401, message: 'missing signature' },
  malformed_signature: { status: 401, message: 'malformed signature: {detail}' },
  signature_mismatch: { status: 401, message: 'signature mismatch' },
  timestamp_too_old: { status: 401, message: 'timestamp too old' },
  timestamp_too_far_ahead: { status: 401, message: 'timestamp too far ahead' },
  // Not a rejection: the stored 2xx of the finished first delivery is answered again.
  event_already_seen: { status: 200, message: 'event id already seen' },
  // 503, not 409: senders (Hookline's `strict`/`payments` policies among them) treat 4xx as
  // permanent, and this delivery must be retried once the first run has finished.
  event_in_progress: { status: 503, message: 'event id already seen, first delivery still processing' },
  event_id_mismatch: { status: 401, message: 'event id header does not match the signed body' },
  missing_event_id: { status: 400, message: 'missing event id' },
  malformed_json: { status: 400, message: 'malformed json' },
  missing_required_field: { status: 400, message: 'missing required field {path}' },
  invalid_field: { status: 400, message: 'invalid field {path}: {detail}' },
  // Not a rejection: acknowledged so the sender stops retrying something we will never handle.
  unknown_event_type: { status: 202, message: 'unknown event type, acknowledged' },
  method_not_allowed: { status: 405, message: 'method not allowed' },
  body_read_timeout: { status: 408, message: 'body read timed out' },
  payload_too_large: { status: 413, message: 'payload too large' },
  handler_failed: { status: 500, message: 'event handler failed' },
  internal_error: { status: 500, message: 'internal error' },
  // Thrown to the caller for a programming mistake (arguments swapped, no secrets, a parsed body); never a sender's fault.
  invalid_argument: { status: 500, message: 'invalid argument: {detail}' },
  storage_unavailable: { status: 503, message: 'storage unavailable' },
} as const);

export type ReceiverErrorCode = keyof typeof receiverErrors;

/** Codes produced by signature and timestamp verification. */
export type VerificationErrorCode =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_too_far_ahead';

/** Fills a catalog message template. */
export function formatMessage(code: ReceiverErrorCode, fields: { path?: string; detail?: string } = {}): string {
  return receiverErrors[code].message.replace('{path}', fields.path ?? '').replace('{detail}', fields.detail ?? '');
}

/**
 * An error carrying a catalog code, its HTTP status and a plain message.
 *
 * @example
 * throw new ReceiverError('signature_mismatch');
 */
export class ReceiverError extends Error {
  readonly code: ReceiverErrorCode;
  readonly status: number;
  readonly path: string | undefined;

  constructor(code: ReceiverErrorCode, fields: { path?: string; detail?: string; cause?: unknown } = {}) {
    super(formatMessage(code, fields), fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'ReceiverError';
    this.code = code;
    this.status = receiverErrors[code].status;
    this.path = fields.path;
  }
}

/**
 * Raised by every dedup store when its backend is down or throws; the handler answers 503
 * so the sender retries later. The driver's error is kept as `cause`.
 *
 * @example
 * try { await store.claim(id, now, staleMs) } catch (e) { if (e instanceof StorageUnavailable) … }
 */
export class StorageUnavailable extends ReceiverError {
  constructor(cause?: unknown) {
    super('storage_unavailable', { cause });
    this.name = 'StorageUnavailable';
  }
}
