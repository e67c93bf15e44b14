// One scripted receiver answer (an HTTP status, `timeout` or `reset`) and the SendResult the engine sees for it.
import type { DeliverySender } from '../dispatch/dispatcher.ts';
import { classifyStatus } from '../policy/classify.ts';

export type ScriptedResponse =
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'reset' };

type SimulatedResult = Awaited<ReturnType<DeliverySender['send']>>;

/** Parses `500`, `timeout` or `reset`; returns an error message for anything else. */
export function parseResponse(raw: string | number): ScriptedResponse | string {
  const text = String(raw).trim().toLowerCase();
  if (text === 'timeout') return { kind: 'timeout' };
  if (text === 'reset') return { kind: 'reset' };
  if (/^\d{3}$/.test(text) && Number(text) >= 100 && Number(text) <= 599)
    return { kind: 'status', status: Number(text) };
  return `'${raw}' is not a response: use an HTTP status (100-599), timeout or reset`;
}

/** The label a response shows in timelines: '500', 'timeout', 'reset'. */
export function responseLabel(r: ScriptedResponse): string {
  return r.kind === 'status' ? String(r.status) : r.kind;
}

/**
 * What the real sender would have returned. A timeout spends the request's whole timeout in virtual time (a delay
 * counts from the end of the previous attempt); every other answer is instant.
 */
export function sendResultFor(r: ScriptedResponse, timeoutMs: number, now: number): SimulatedResult {
  const base = {
    responseHeaders: null,
    bodyExcerpt: null,
    retryAfterMs: undefined,
    startedAt: now,
    durationMs: 0,
    simulatedDurationMs: 0,
  };
  if (r.kind === 'timeout') {
    return {
      ...base,
      outcome: 'delivery_failure',
      status: null,
      errorClass: 'timeout',
      errorMessage: `no full response within ${timeoutMs} ms`,
      durationMs: timeoutMs,
      simulatedDurationMs: timeoutMs,
    };
  }
  if (r.kind === 'reset') {
    return {
      ...base,
      outcome: 'delivery_failure',
      status: null,
      errorClass: 'connection',
      errorMessage: 'ECONNRESET: connection reset by the receiver',
    };
  }
  const outcome = classifyStatus(r.status);
  return {
    ...base,
    outcome,
    status: r.status,
    responseHeaders: { 'content-type': 'text/plain' },
    bodyExcerpt: outcome === 'success' ? 'ok' : 'simulated failure',
    errorClass: outcome === 'success' ? null : 'status',
    errorMessage: outcome === 'success' ? null : `HTTP ${r.status}`,
  };
}

/** The label of an attempt the engine recorded, from what the scripted sender returned for it. */
export function labelOfAttempt(a: { responseStatus: number | null; errorClass: string | null }): string {
  if (a.errorClass === 'timeout') return 'timeout';
  if (a.errorClass === 'connection') return 'reset';
  return a.responseStatus === null ? (a.errorClass ?? 'unknown') : String(a.responseStatus);
}
