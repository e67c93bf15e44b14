// One attempt of a claimed delivery as data: the signed request it sends, and the record its send result becomes.
// Pure (no I/O, no clock): the dispatcher supplies the times, the live secrets and the breaker scope.
import { type AttemptTrigger, isEgressFailure } from '../domain.ts';
import { recordedHeaders, withCustomHeaders } from '../http/custom-headers.ts';
import type { SendResult } from '../http/sender.ts';
import type { Policy } from '../policy/types.ts';
import { type SigningSecret, signHeaders } from '../signing/sign-headers.ts';
import type { AttemptRecord, ClaimedDelivery } from '../store/store.ts';
import { attemptFromResult } from './attempt-from-result.ts';
import { nextState } from './next-state.ts';

/** No send waits longer than this, whatever the endpoint or policy says. */
export const MAX_TIMEOUT_MS = 60_000;

/** What the dispatcher hands its sender for one attempt. */
export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  /** The endpoint and its cap: the HTTP client keeps a pool per endpoint sized to it. */
  endpointId: string;
  maxConcurrency: number;
}

/** The endpoint's timeout, else its policy's, within MAX_TIMEOUT_MS. */
export function sendTimeoutMs(c: ClaimedDelivery, policy: Policy): number {
  return Math.min(c.endpoint.timeoutMs ?? policy.timeoutMs, MAX_TIMEOUT_MS);
}

/** What a request is made from: a claimed delivery, or the few parts of one a test delivery has. */
export interface SignedRequestSource {
  delivery: Pick<ClaimedDelivery['delivery'], 'id' | 'eventId'>;
  body: Buffer;
  endpoint: Pick<ClaimedDelivery['endpoint'], 'id' | 'url' | 'scheme' | 'customHeaders' | 'maxConcurrency'>;
}

/** The request for an attempt started at `now`, signed with every live secret (newest first). */
export function signedRequest(
  c: SignedRequestSource,
  secrets: readonly SigningSecret[],
  now: number,
  timeoutMs: number,
): SignedRequest {
  // Custom headers go beneath the signed ones: they can never replace one (docs/rules.md#custom-headers).
  const headers = withCustomHeaders(
    c.endpoint.customHeaders,
    signHeaders({
      scheme: c.endpoint.scheme,
      eventId: c.delivery.eventId,
      deliveryId: c.delivery.id,
      timestampSec: Math.floor(now / 1000),
      body: c.body,
      secrets,
    }),
  );
  return {
    url: c.endpoint.url,
    headers,
    body: c.body,
    timeoutMs,
    endpointId: c.endpoint.id,
    maxConcurrency: c.endpoint.maxConcurrency,
  };
}

/** What started the attempt of a claimed delivery: its replay, a breaker probe, or the schedule. */
export function attemptTrigger(c: ClaimedDelivery, probe: boolean): AttemptTrigger {
  return c.replayId !== null ? 'replay' : probe ? 'probe' : 'scheduled';
}

/**
 * The record of one sent attempt: the attempt row (headers as recorded, credentials redacted), the delivery's next
 * state by `policy`, and how it counts for health and the breaker. `breakerScope` is null for a replay.
 */
export function attemptRecord(
  c: ClaimedDelivery,
  policy: Policy,
  headers: Readonly<Record<string, string>>,
  result: SendResult & { simulatedDurationMs?: number },
  startedAt: number,
  endedAt: number,
  probe: boolean,
  breakerScope: string | null,
  workerId: string,
  random: () => number,
  reopenWindowMs?: number,
): AttemptRecord {
  const d = c.delivery;
  const isReplay = c.replayId !== null;
  const trigger = attemptTrigger(c, probe);
  const attempt = attemptFromResult(
    {
      deliveryId: d.id,
      tenantId: d.tenantId,
      environment: c.environment,
      endpointId: c.endpoint.id,
      n: d.attemptCount + 1,
      trigger,
      // The ladder this attempt was scheduled on (nextState may move the delivery to another for the next one).
      ladder: d.ladder,
      startedAt,
      requestHeaders: recordedHeaders(c.endpoint.customHeaders, headers),
    },
    result,
  );
  const { next, progress } = nextState(policy, d, result, startedAt, endedAt, isReplay, random);
  // Hookline's own egress failed (proxy): the receiver was never asked, so neither health nor the breaker's window
  // hears of it (docs/rules.md#egress-failures); the delivery still retries on its ladder.
  const egress = isEgressFailure(result.errorClass);
  // Optional fields are set when present rather than spread in: this runs once per attempt.
  const health: AttemptRecord['health'] = {
    rule: policy.health,
    // Failed replays and tests leave health alone; any success clears it (docs/rules.md#health-clear).
    countsFailure: !egress && (trigger === 'scheduled' || trigger === 'probe'),
    countsSuccess: true,
  };
  if (reopenWindowMs !== undefined) health.reopenWindowMs = reopenWindowMs;
  const record: AttemptRecord = {
    attempt,
    workerId,
    next,
    progress,
    replayId: c.replayId,
    previousAttemptAt: d.lastAttemptAt,
    health,
    breakerScope: egress ? null : breakerScope,
  };
  if (d.orderingKey != null) record.ordering = { endpointId: c.endpoint.id, key: d.orderingKey };
  return record;
}

/** The attempt's log line (docs/rules.md#attempt-log). */
export function attemptLogFields(
  c: ClaimedDelivery,
  record: AttemptRecord,
  result: SendResult,
): Record<string, unknown> {
  const d = c.delivery;
  const { attempt, next } = record;
  return {
    event_id: d.eventId,
    delivery_id: d.id,
    attempt: attempt.n,
    endpoint_id: c.endpoint.id,
    tenant_id: d.tenantId,
    environment: c.environment,
    trigger: attempt.trigger,
    status: result.status,
    outcome: result.outcome,
    error_class: result.errorClass,
    duration_ms: attempt.durationMs,
    next: next.status,
    ...(attempt.traceId ? { trace_id: attempt.traceId } : {}),
  };
}
