// The receiver's options (HandlerOptions) and their resolution: exactly one of an inbox or a dedup store, the
// defaults filled in, and a wrong combination refused when the handler is built, never on a request.
import type { DedupStore } from './dedup-store.ts';
import type { Inbox } from './inbox/inbox.ts';
import { defaultLogger, type LogLine } from './log-line.ts';
import type { VerifierOptions } from './verify.ts';
import type { EventContract } from './webhook-event.ts';

export interface HandlerOptions extends VerifierOptions {
  /**
   * The durable inbox (recommended): the event is stored before the 2xx and its handler runs
   * from the stored copy, retried, and survives a crash. Its `events` are the contracts.
   */
  inbox?: Inbox;
  /**
   * Dedup-only mode (the 0.1 API): only the id is stored before the 2xx and the handler runs in
   * memory, so a crash after the 2xx loses the work until the sender delivers the id again.
   */
  store?: DedupStore;
  /** Contracts by event type (with `store`; with `inbox` they come from the inbox). Other types are acknowledged (2xx), logged and not run. */
  events?: Readonly<Record<string, EventContract>>;
  /**
   * `after-store` (default): answer 202 once the id is durably recorded and the work queued.
   * `after-handler`: answer 200 after the work succeeded, 500 (retryable) when it threw (dedup `store` only).
   */
  ackMode?: 'after-store' | 'after-handler';
  /** A claim not finished after this long is treated as crashed and may run again. Default 10 min. */
  staleAfterMs?: number;
  /** `Retry-After` seconds on 503 answers. Default 10. */
  retryAfterSeconds?: number;
  /** A store call slower than this counts as storage down. Default 5000 ms. */
  storeTimeoutMs?: number;
  /** Reads the event type from the parsed payload. Default `payload.type`. */
  eventType?: (payload: unknown) => unknown;
  /** One JSON object per outcome; default writes a JSON line to stderr. */
  logger?: (line: LogLine) => void;
  /**
   * Requests from `hookline doctor` (`X-Webhook-Doctor: 1` or a `doctor_` event id, docs/rules.md#tool-doctor).
   * `acknowledge` (default): verified, validated and answered exactly as a real event, but never stored and never
   * handed to a handler. `handle`: treated as real events (stored, run); `isDoctorRequest(event.headers, event.id)`
   * tells them apart in the handler.
   */
  doctorEvents?: 'acknowledge' | 'handle';
}

/** The options with their defaults, as the handler uses them. */
export function resolveHandlerOptions(options: HandlerOptions) {
  const now = options.now ?? Date.now;
  const inbox = options.inbox;
  if ((inbox === undefined) === (options.store === undefined))
    throw new TypeError('createWebhookHandler: give exactly one of `inbox` (durable) or `store` (dedup only)');
  if (inbox !== undefined && options.events !== undefined)
    throw new TypeError('createWebhookHandler: with an inbox, give `events` to createInbox()');
  if (inbox !== undefined && options.ackMode === 'after-handler')
    throw new TypeError(
      "createWebhookHandler: ackMode 'after-handler' needs a dedup `store`; the inbox answers once the event is stored",
    );
  if (inbox === undefined && options.events === undefined)
    throw new TypeError('createWebhookHandler: `events` is required with a dedup `store`');
  const store = options.store!;
  const events = inbox?.events ?? options.events!;
  const ackMode = options.ackMode ?? 'after-store';
  const staleAfterMs = options.staleAfterMs ?? 10 * 60_000;
  const retryAfter = String(options.retryAfterSeconds ?? 10);
  const storeTimeoutMs = options.storeTimeoutMs ?? 5000;
  const eventType = options.eventType ?? ((payload: unknown) => (payload as { type?: unknown } | null)?.type);
  const log = options.logger ?? defaultLogger;
  const doctorEvents = options.doctorEvents ?? 'acknowledge';
  if (doctorEvents !== 'acknowledge' && doctorEvents !== 'handle')
    throw new TypeError(
      `createWebhookHandler: doctorEvents must be 'acknowledge' or 'handle', got ${String(doctorEvents)}`,
    );
  return { now, inbox, store, events, ackMode, staleAfterMs, retryAfter, storeTimeoutMs, eventType, log, doctorEvents };
}
