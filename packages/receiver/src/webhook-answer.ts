// The receiver's answers: the JSON body and status of a 2xx or of a catalog error, as every adapter writes them.
import type { StoredAnswer } from './dedup-store.ts';
import type { ReceiverError } from './errors.ts';

export interface WebhookResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

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

/** The 2xx of an event taken (or acknowledged, with a `note` saying why it is not run). */
export function accepted(eventId: string, status: number, note?: string): WebhookResponse {
  const body = note === undefined ? { ok: true, event_id: eventId } : { ok: true, event_id: eventId, note };
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

/** What a dedup store keeps of an answer, to give it again to a redelivery. */
export function toStored(answer: WebhookResponse): StoredAnswer {
  return { status: answer.status, body: answer.body };
}

/** The answer a dedup store kept, as sent again. */
export function storedAnswer(stored: StoredAnswer): WebhookResponse {
  return { status: stored.status, headers: { ...JSON_HEADERS }, body: stored.body };
}
