// The attempt row an HTTP exchange leaves behind, for scheduled, replayed, probe and test deliveries alike.
import type { Attempt } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { newId } from '../ids.ts';

/** Who and when: everything of the attempt that does not come from the HTTP exchange. */
export type AttemptContext = Pick<
  Attempt,
  'deliveryId' | 'tenantId' | 'environment' | 'endpointId' | 'n' | 'trigger' | 'ladder' | 'startedAt' | 'requestHeaders'
>;

export function attemptFromResult(ctx: AttemptContext, result: SendResult & { simulatedDurationMs?: number }): Attempt {
  // Every field named (no spread of ctx): this runs once per attempt.
  return {
    id: newId('att', ctx.startedAt),
    deliveryId: ctx.deliveryId,
    tenantId: ctx.tenantId,
    environment: ctx.environment,
    endpointId: ctx.endpointId,
    n: ctx.n,
    trigger: ctx.trigger,
    ladder: ctx.ladder,
    startedAt: ctx.startedAt,
    requestHeaders: ctx.requestHeaders,
    durationMs: result.simulatedDurationMs ?? result.durationMs,
    responseStatus: result.status,
    responseHeaders: result.responseHeaders,
    responseExcerpt: result.bodyExcerpt,
    errorClass: result.errorClass,
    errorMessage: result.errorMessage,
    outcome: result.outcome,
  };
}
