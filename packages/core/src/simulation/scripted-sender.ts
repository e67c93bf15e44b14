// An in-process receiver for `hookline simulate`: a DeliverySender that answers from a script, no sockets.
import type { Clock } from '../clock.ts';
import type { DeliverySender } from '../dispatch/dispatcher.ts';
import { type ScriptedResponse, sendResultFor } from './scripted-response.ts';

/** `pick(n, now)` chooses the answer to the n-th request (1-based) sent at virtual time `now`. */
export function createScriptedSender(
  clock: Clock,
  pick: (n: number, now: number) => ScriptedResponse,
): DeliverySender & { readonly requests: number } {
  let requests = 0;
  return {
    get requests() {
      return requests;
    },
    async send(request) {
      requests++;
      const now = clock.now();
      return sendResultFor(pick(requests, now), request.timeoutMs, now);
    },
  };
}

/** A script read in order; the last answer repeats once the script runs out (`500,404` means 500, 404, 404, …). */
export function scriptPicker(script: readonly ScriptedResponse[]): (n: number) => ScriptedResponse {
  if (script.length === 0) throw new Error('a response script needs at least one response');
  return (n) => script[Math.min(n, script.length) - 1];
}
