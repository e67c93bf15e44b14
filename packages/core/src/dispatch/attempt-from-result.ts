// The attempt row an HTTP exchange leaves behind, for scheduled, replayed, probe and test deliveries alike.
import type { Attempt, AttemptTrigger } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { newId } from '../ids.ts';

export interface AttemptContext {
  deliveryId: string;
  tenantId: string;
  endpointId: string;
  n: number;
  trigger: AttemptTrigger;
  startedAt: number;
  requestHeaders: Record<string, string>;
}

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
