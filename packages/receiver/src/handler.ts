// The framework-free receiver: verify → timestamp → record id → parse → contract → worker → 2xx.
import { isDoctorRequest } from './doctor-request.ts';
import { formatMessage, ReceiverError, StorageUnavailable } from './errors.ts';
import { admitEvent } from './event-admission.ts';
import { type HandlerOptions, resolveHandlerOptions } from './handler-options.ts';
import { type HeaderSource, keptHeaders } from './headers.ts';
import type { Inbox } from './inbox/inbox.ts';
import { describe, type LogBase, type LogLine, signatureResult, unverifiedIds } from './log-line.ts';
import type { SignedRequest } from './signed-request.ts';
import { createVerifier } from './verify.ts';
import { accepted, answerFor, storedAnswer, toStored, type WebhookResponse } from './webhook-answer.ts';
import type { EventContract, WebhookEvent } from './webhook-event.ts';

export type { HandlerOptions } from './handler-options.ts';

export interface WebhookRequest {
  headers: HeaderSource;
  rawBody: string | Uint8Array;
}

export interface WebhookHandler {
  (request: WebhookRequest): Promise<WebhookResponse>;
  /** Resolves once every queued worker has finished (graceful shutdown, tests). */
  drain(): Promise<void>;
  /** Logs and answers a request an adapter refused before the handler ran (413, 408, 405). */
  refuse(error: ReceiverError, headers: HeaderSource): WebhookResponse;
}

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
  const { now, inbox, store, events, ackMode, staleAfterMs, retryAfter, storeTimeoutMs, eventType, log, doctorEvents } =
    resolveHandlerOptions(options);
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

  /** A doctor check: judged like a real event (parse, signed id, contract), answered with its status, never run. */
  function answerDoctor(
    request: WebhookRequest,
    signed: SignedRequest,
    eventId: string,
    base: LogBase,
  ): WebhookResponse {
    const admitted = admitEvent(request.rawBody, signed, eventId, events, eventType);
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
    const admitted = admitEvent(request.rawBody, signed, eventId, events, eventType);
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
        return claim.answer === undefined ? accepted(eventId, 202) : storedAnswer(claim.answer);
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

    const admitted = admitEvent(request.rawBody, signed, eventId, events, eventType);
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

function asStorageError(error: unknown): ReceiverError {
  return error instanceof StorageUnavailable ? error : new StorageUnavailable(error);
}
