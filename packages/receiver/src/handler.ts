// The framework-free receiver: verify → timestamp → record id → parse → contract → worker → 2xx.
import { validateContract } from './contract.ts';
import type { DedupStore, StoredAnswer } from './dedup-store.ts';
import { isDoctorRequest } from './doctor-request.ts';
import { formatMessage, ReceiverError, type ReceiverErrorCode, receiverErrors, StorageUnavailable } from './errors.ts';
import { type HeaderSource, keptHeaders, readHeader } from './headers.ts';
import type { Inbox } from './inbox/inbox.ts';
import { defaultLogger, type LogLine } from './log-line.ts';
import { hooklineHeaderNames } from './signature-hookline.ts';
import type { SignedRequest } from './signed-request.ts';
import { createVerifier, type VerifierOptions } from './verify.ts';
import type { EventContract, WebhookEvent } from './webhook-event.ts';

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

export interface WebhookRequest {
  headers: HeaderSource;
  rawBody: string | Uint8Array;
}

export interface WebhookResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookHandler {
  (request: WebhookRequest): Promise<WebhookResponse>;
  /** Resolves once every queued worker has finished (graceful shutdown, tests). */
  drain(): Promise<void>;
  /** Logs and answers a request an adapter refused before the handler ran (413, 408, 405). */
  refuse(error: ReceiverError, headers: HeaderSource): WebhookResponse;
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

/**
 * Builds the receiver. Adapters (node:http, Express, Fastify, Hono) only read the raw body
 * and write the answer.
 *
 * @example
 * const receive = createWebhookHandler({
 *   secrets: [{ kid: 'sec_01JGZ6Q4W8N5T2R7Y3K9M1B0XC', secret: process.env.WEBHOOK_SECRET! }],
 *   store: sqliteStore(new Database('webhooks.db')),
 *   events: { 'order.shipped': { schema: { type: 'object', required: ['data'] }, handle: (e) => printLabel(e.payload) } },
 * });
 * const { status, headers, body } = await receive({ headers: req.headers, rawBody });
 */
export function createWebhookHandler(options: HandlerOptions): WebhookHandler {
  const verifier = createVerifier(options);
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
  const running = new Set<Promise<void>>();

  const timed = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StorageUnavailable(new Error(`store call exceeded ${storeTimeoutMs} ms`))),
        storeTimeoutMs,
      );
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  };

  async function runWorker(contract: EventContract, event: WebhookEvent, base: LogBase): Promise<boolean> {
    try {
      await contract.handle(event);
    } catch (error) {
      log({
        level: 'error',
        msg: 'webhook handler failed',
        ...base,
        signature: 'valid',
        code: 'handler_failed',
        reason: describe(error),
        attempt: event.attempt,
      });
      await timed(store.markFailed(event.id, event.attempt, describe(error), now())).catch((storeError: unknown) => {
        // The claim stays unfinished and becomes re-claimable once stale: the work still runs again.
        log({
          level: 'error',
          msg: 'could not record handler failure',
          ...base,
          signature: 'valid',
          code: 'storage_unavailable',
          reason: describe(storeError),
        });
      });
      return false;
    }
    await timed(store.markDone(event.id, event.attempt, now())).catch((storeError: unknown) => {
      log({
        level: 'error',
        msg: 'could not record completion',
        ...base,
        signature: 'valid',
        code: 'storage_unavailable',
        reason: describe(storeError),
      });
    });
    return true;
  }

  const rejectWith = (base: LogBase, error: ReceiverError, signature: LogLine['signature']): WebhookResponse => {
    const line: LogLine = {
      level: error.status >= 500 ? 'error' : 'warn',
      msg: 'webhook rejected',
      ...base,
      signature,
      status: error.status,
      code: error.code,
      reason: error.message,
    };
    if (error.cause !== undefined) line.cause = describe(error.cause);
    log(line);
    return answerFor(error, retryAfter);
  };

  /** Parse, check the signed id, find the contract, validate: the request's own faults, before any write. */
  /** An event of a type with no contract is acknowledged (202) and said so once, whichever path took it. */
  const logUnknownType = (base: LogBase, type: string): void =>
    log({
      level: 'info',
      msg: 'webhook acknowledged, unknown event type',
      ...base,
      signature: 'valid',
      status: 202,
      code: 'unknown_event_type',
      reason: formatMessage('unknown_event_type'),
      type,
    });

  function admit(
    rawBody: WebhookRequest['rawBody'],
    signed: SignedRequest,
    eventId: string,
  ): ReceiverError | { payload: unknown; type: string; contract: EventContract | undefined } {
    let payload: unknown;
    try {
      payload = JSON.parse(
        typeof rawBody === 'string'
          ? rawBody
          : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8'),
      );
    } catch {
      return new ReceiverError('malformed_json');
    }
    // X-Webhook-Id is not covered by the hookline signature; the signed envelope's id is.
    const bodyId = (payload as { event_id?: unknown } | null)?.event_id;
    if (signed.scheme === 'hookline' && bodyId !== undefined && bodyId !== eventId)
      return new ReceiverError('event_id_mismatch');
    const type = eventType(payload);
    if (typeof type !== 'string' || type === '') return new ReceiverError('missing_required_field', { path: 'type' });
    const contract = Object.hasOwn(events, type) ? events[type] : undefined;
    if (contract?.schema !== undefined) {
      const violation = validateContract(contract.schema, payload);
      if (violation !== undefined) {
        return violation.kind === 'missing'
          ? new ReceiverError('missing_required_field', { path: violation.path })
          : new ReceiverError('invalid_field', { path: violation.path, detail: violation.detail });
      }
    }
    return { payload, type, contract };
  }

  /** A doctor check: judged like a real event (parse, signed id, contract), answered with its status, never run. */
  function answerDoctor(
    request: WebhookRequest,
    signed: SignedRequest,
    eventId: string,
    base: LogBase,
  ): WebhookResponse {
    const admitted = admit(request.rawBody, signed, eventId);
    if (admitted instanceof ReceiverError) return rejectWith(base, admitted, 'valid');
    if (admitted.contract === undefined) {
      logUnknownType(base, admitted.type);
      return accepted(eventId, 202, 'unknown event type');
    }
    const status = inbox === undefined && ackMode === 'after-handler' ? 200 : 202;
    log({
      level: 'info',
      msg: 'webhook doctor check answered, not run',
      ...base,
      signature: 'valid',
      status,
      type: admitted.type,
      doctor: true,
    });
    return accepted(eventId, status);
  }

  /** Inbox mode: validate, then store the event in one write; the 2xx only once it is on disk. */
  async function receiveIntoInbox(
    inbox: Inbox,
    request: WebhookRequest,
    signed: SignedRequest,
    eventId: string,
    base: LogBase,
  ): Promise<WebhookResponse> {
    const admitted = admit(request.rawBody, signed, eventId);
    if (admitted instanceof ReceiverError) return rejectWith(base, admitted, 'valid');
    const { type, contract } = admitted;
    if (contract === undefined) {
      logUnknownType(base, type);
      return accepted(eventId, 202, 'unknown event type');
    }
    const raw = request.rawBody;
    const body = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let result: Awaited<ReturnType<Inbox['accept']>>;
    try {
      result = await timed(
        inbox.accept({
          eventId,
          type,
          deliveryId: signed.deliveryId,
          scheme: signed.scheme,
          headers: keptHeaders(request.headers),
          body,
          receivedAt: now(),
        }),
      );
    } catch (error) {
      return rejectWith(base, asStorageError(error), 'valid');
    }
    if (result.kind === 'duplicate') {
      // Stored already (done, queued or running): the same 2xx, and nothing runs twice.
      log({
        level: 'info',
        msg: 'webhook duplicate answered again',
        ...base,
        signature: 'valid',
        status: 202,
        code: 'event_already_seen',
        reason: formatMessage('event_already_seen'),
        state: result.state,
      });
    } else {
      log({ level: 'info', msg: 'webhook stored in the inbox', ...base, signature: 'valid', status: 202, type });
    }
    return accepted(eventId, 202);
  }

  async function receive(request: WebhookRequest): Promise<WebhookResponse> {
    // Unverified until the signature checks out; logged so support can trace what was refused.
    const base = unverifiedIds(request.headers);
    const reject = (error: ReceiverError, signature: LogLine['signature']) => rejectWith(base, error, signature);

    let signed: SignedRequest;
    try {
      signed = verifier.verify(request.headers, request.rawBody);
    } catch (error) {
      // A wrong call (a parsed body from a JSON parser in front) is our bug, not the sender's: an opaque 500, logged.
      if (!(error instanceof ReceiverError) || error.code === 'invalid_argument') throw error;
      return reject(error, signatureResult(error.code));
    }
    base.event_id = signed.eventId;
    base.delivery_id = signed.deliveryId;
    const eventId = signed.eventId;
    if (eventId === undefined || eventId === '') return reject(new ReceiverError('missing_event_id'), 'valid');
    // Before any write: a doctor check leaves no id behind, so it can neither run nor shadow a real delivery.
    if (doctorEvents === 'acknowledge' && isDoctorRequest(request.headers, eventId))
      return answerDoctor(request, signed, eventId, base);
    if (inbox !== undefined) return receiveIntoInbox(inbox, request, signed, eventId, base);

    let attempt: number;
    try {
      const claim = await timed(store.claim(eventId, now(), staleAfterMs));
      if (claim.kind === 'done') {
        const reason = formatMessage('event_already_seen');
        log({
          level: 'info',
          msg: 'webhook duplicate answered again',
          ...base,
          signature: 'valid',
          status: claim.answer?.status ?? 202,
          code: 'event_already_seen',
          reason,
        });
        return claim.answer === undefined
          ? accepted(eventId, 202)
          : { status: claim.answer.status, headers: { ...JSON_HEADERS }, body: claim.answer.body };
      }
      if (claim.kind === 'in_progress') return reject(new ReceiverError('event_in_progress'), 'valid');
      attempt = claim.attempt;
    } catch (error) {
      return reject(asStorageError(error), 'valid');
    }

    // From here the id is recorded; a rejection releases it so a corrected redelivery is judged afresh.
    const refuse = async (error: ReceiverError): Promise<WebhookResponse> => {
      await timed(store.release(eventId, attempt)).catch(() => {
        // Left as an unfinished claim it turns stale and re-claimable: nothing is lost.
      });
      return reject(error, 'valid');
    };

    const admitted = admit(request.rawBody, signed, eventId);
    if (admitted instanceof ReceiverError) return refuse(admitted);
    const { payload, type, contract } = admitted;
    if (contract === undefined) {
      const answer = accepted(eventId, 202, 'unknown event type');
      try {
        await timed(store.markDone(eventId, attempt, now(), toStored(answer)));
      } catch (error) {
        return reject(asStorageError(error), 'valid');
      }
      logUnknownType(base, type);
      return answer;
    }
    const event: WebhookEvent = {
      id: eventId,
      deliveryId: signed.deliveryId,
      type,
      payload,
      rawBody: request.rawBody,
      attempt,
      scheme: signed.scheme,
      headers: keptHeaders(request.headers),
      receivedAt: now(),
    };
    const answer = accepted(eventId, ackMode === 'after-store' ? 202 : 200);
    try {
      const owned = await timed(store.markProcessing(eventId, attempt, toStored(answer), now()));
      // Lost only if this claim went stale and another delivery re-claimed it meanwhile.
      if (!owned) return reject(new ReceiverError('event_in_progress'), 'valid');
    } catch (error) {
      return reject(asStorageError(error), 'valid');
    }

    if (ackMode === 'after-handler') {
      if (!(await runWorker(contract, event, base))) return answerFor(new ReceiverError('handler_failed'), retryAfter);
      log({ level: 'info', msg: 'webhook handled', ...base, signature: 'valid', status: answer.status, type, attempt });
      return answer;
    }
    // setImmediate lets the adapter write the answer before the work starts.
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => runWorker(contract, event, base))
      .then(() => undefined);
    running.add(job);
    void job.finally(() => running.delete(job));
    log({ level: 'info', msg: 'webhook accepted', ...base, signature: 'valid', status: answer.status, type, attempt });
    return answer;
  }

  const handler = async (request: WebhookRequest): Promise<WebhookResponse> => {
    try {
      return await receive(request);
    } catch (error) {
      // A bug or a throwing option, never the sender's fault: opaque 500 (retryable), cause logged.
      log({
        level: 'error',
        msg: 'webhook receiver failed',
        event_id: undefined,
        delivery_id: undefined,
        signature: 'unchecked',
        status: 500,
        code: 'internal_error',
        reason: describe(error),
      });
      return answerFor(new ReceiverError('internal_error'), retryAfter);
    }
  };
  return Object.assign(handler, {
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    refuse(error: ReceiverError, headers: HeaderSource) {
      const answer = rejectWith(unverifiedIds(headers), error, 'unchecked');
      // The unread body may still be arriving; closing is cheaper than draining it.
      return { ...answer, headers: { ...answer.headers, connection: 'close' } };
    },
  });
}

type LogBase = { event_id: string | undefined; delivery_id: string | undefined };

function unverifiedIds(headers: HeaderSource): LogBase {
  return {
    event_id:
      readHeader(headers, hooklineHeaderNames.id) ??
      readHeader(headers, 'webhook-id') ??
      readHeader(headers, 'svix-id'),
    delivery_id: readHeader(headers, hooklineHeaderNames.delivery) ?? readHeader(headers, 'webhook-delivery'),
  };
}

/**
 * The JSON answer for a catalog error; 503s carry `Retry-After`.
 *
 * @example
 * answerFor(new ReceiverError('payload_too_large'), '10') // { status: 413, … }
 */
export function answerFor(error: ReceiverError, retryAfterSeconds = '10'): WebhookResponse {
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (error.status === 503) headers['retry-after'] = retryAfterSeconds;
  return {
    status: error.status,
    headers,
    body: JSON.stringify({ ok: false, code: error.code, message: error.message }),
  };
}

function accepted(eventId: string, status: number, note?: string): WebhookResponse {
  const body = note === undefined ? { ok: true, event_id: eventId } : { ok: true, event_id: eventId, note };
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

function toStored(answer: WebhookResponse): StoredAnswer {
  return { status: answer.status, body: answer.body };
}

function asStorageError(error: unknown): ReceiverError {
  return error instanceof StorageUnavailable ? error : new StorageUnavailable(error);
}

function signatureResult(code: ReceiverErrorCode): LogLine['signature'] {
  if (code === 'missing_signature') return 'missing';
  if (code === 'malformed_signature') return 'malformed';
  if (code === 'signature_mismatch') return 'mismatch';
  // Timestamps are checked after the signature matched.
  return receiverErrors[code].status === 401 ? 'valid' : 'unchecked';
}

function describe(error: unknown): string {
  if (error instanceof StorageUnavailable && error.cause !== undefined)
    return `${error.message}: ${describe(error.cause)}`;
  return error instanceof Error ? error.message : String(error);
}
