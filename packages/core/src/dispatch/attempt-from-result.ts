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
  return {
    id: newId('att', ctx.startedAt),
    ...ctx,
    durationMs: result.simulatedDurationMs ?? result.durationMs,
    responseStatus: result.status,
    responseHeaders: result.responseHeaders,
    responseExcerpt: result.bodyExcerpt,
    errorClass: result.errorClass,
    errorMessage: result.errorMessage,
    outcome: result.outcome,
  };
}
