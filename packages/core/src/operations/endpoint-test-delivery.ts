// The test delivery of an endpoint (POST …/endpoints/:endpoint/test): one delivery of `hookline.test` now, its
// attempt recorded (and audited) like any other; success clears degradation.
import type { Actor } from '../audit/audit-types.ts';
import { DEFAULTS } from '../defaults.ts';
import { attemptFromResult } from '../dispatch/attempt-from-result.ts';
import { setTraceHeaders } from '../dispatch/attempt-trace.ts';
import { signedRequest } from '../dispatch/delivery-attempt.ts';
import type { DeliverySender } from '../dispatch/dispatcher.ts';
import type { Attempt, Endpoint } from '../domain.ts';
import { fail } from '../errors.ts';
import { recordedHeaders } from '../http/custom-headers.ts';
import { newId } from '../ids.ts';
import { type AttemptSpan, startAttemptSpan } from '../tracing/attempt-span.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

const TEST_MAX_TIMEOUT_MS = 60_000;
const TEST_LEASE_MARGIN_MS = 30_000;

/**
 * The delivery is inserted leased by this process for the send's timeout and a margin, so it always ends: by its
 * recorded attempt here, or, when this process dies or the record fails, by the dispatcher once the lease lapses.
 */
export async function sendTestDelivery(
  p: EngineParts,
  ep: Endpoint & { version: number },
  actor?: Actor,
): Promise<Attempt> {
  const tenantId = ep.tenantId;
  const id = ep.id;
  const tenant = await p.store.catalog.getTenant(tenantId);
  if (!tenant) throw fail('tenant_not_found');
  const policy = p.policies.get(ep.policy) ?? p.policies.default();
  const timeoutMs = Math.min(ep.timeoutMs ?? policy.timeoutMs, TEST_MAX_TIMEOUT_MS);
  const prepared = await p.ingest.prepare(tenantId, {
    type: 'hookline.test',
    data: { endpoint_id: id, message: 'test delivery from Hookline' },
  });
  const now = p.clock.now();
  const deliveryId = newId('dlv', now);
  const workerId = p.dispatcher.workerId;
  prepared.deliveries = [
    {
      id: deliveryId,
      endpointId: id,
      status: 'pending',
      nextAttemptAt: now,
      lease: { workerId, until: now + timeoutMs + TEST_LEASE_MARGIN_MS },
    },
  ];
  await p.store.events.acceptEvents([prepared]);
  const startedAt = p.clock.now();
  let headers: Record<string, string>;
  let result: Awaited<ReturnType<DeliverySender['send']>>;
  let span: AttemptSpan | null = null;
  try {
    // Signed as every attempt is (dispatch/delivery-attempt.ts): live secrets, custom headers beneath the signed ones.
    const request = signedRequest(
      { delivery: { id: deliveryId, eventId: prepared.event.eventId }, body: prepared.event.body, endpoint: ep },
      await p.secrets.live(id, ep.version, startedAt),
      startedAt,
      timeoutMs,
    );
    headers = request.headers;
    if (p.tracer !== null) {
      span = startAttemptSpan(p.tracer, {
        url: ep.url,
        endpointId: id,
        deliveryId,
        eventId: prepared.event.eventId,
        tenantId,
        n: 1,
        trigger: 'test',
        ladder: 'fast',
        parent: null,
        acceptedAt: startedAt,
        now: startedAt,
      });
      setTraceHeaders(headers, span.headers);
    }
    result = await p.sender.send({ ...request, ...(await p.egress.of(id, ep.version)) });
  } catch (err) {
    // Not sent at all (no live secret, a sender fault): the delivery ends failed with the reason, never stays open.
    await p.store.queue.endDeliveries(
      [deliveryId],
      workerId,
      'failed',
      `test delivery failed: ${(err as Error).message}`,
      p.clock.now(),
      { summarise: false },
    );
    throw err;
  }
  const attempt = attemptFromResult(
    {
      deliveryId,
      tenantId,
      environment: tenant.environment,
      endpointId: id,
      n: 1,
      trigger: 'test',
      ladder: 'fast',
      startedAt,
      requestHeaders: recordedHeaders(ep.customHeaders, headers),
    },
    result,
  );
  if (span !== null) {
    attempt.traceId = span.traceId;
    span.end(result);
  }
  const what = {
    action: 'endpoint.test',
    target: { type: 'delivery' as const, id: deliveryId, tenantId },
    details: { endpoint_id: id },
  };
  const transitions = await audited(
    p,
    actor,
    what,
    'recordTestAttempt',
    attempt,
    {
      rule: policy.health,
      countsFailure: false,
      countsSuccess: true,
      reopenWindowMs: p.settings.noticeReopenWindowMs ?? DEFAULTS.notifications.reopenWindowMs,
    },
    p.clock.now(),
    workerId,
  );
  p.emitHealth(transitions);
  return attempt;
}
