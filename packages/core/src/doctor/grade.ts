// Pure grading of the doctor's cases: (case, the responses it got) → pass / warn / fail with a one-line explanation.
import type { DoctorCaseId } from './cases.ts';

export type DoctorGrade = 'pass' | 'warn' | 'fail' | 'skip';

/** One request's outcome as the doctor saw it. */
export interface DoctorObservation {
  /** HTTP status, or null when no full answer came (timeout, refused connection, SSRF refusal). */
  readonly status: number | null;
  readonly durationMs: number;
  /** Why there is no answer; null when there is one. */
  readonly error: string | null;
}

export interface DoctorVerdict {
  readonly grade: DoctorGrade;
  readonly explanation: string;
}

/** Latency above this is a warning on the valid event: a receiver acknowledges fast (docs/rules.md#tool-doctor). */
export const SLOW_ANSWER_MS = 1_000;
/** Latency above this fails the valid event: senders time out around here and retry. */
export const TOO_SLOW_ANSWER_MS = 10_000;

const is2xx = (s: number | null): s is number => s !== null && s >= 200 && s < 300;
const is4xx = (s: number | null): s is number => s !== null && s >= 400 && s < 500;
const is5xx = (s: number | null): s is number => s !== null && s >= 500;

/** "HTTP 500" or what happened instead of an answer. */
export function describeObservation(o: DoctorObservation): string {
  return o.status === null ? (o.error ?? 'no answer') : `HTTP ${o.status}`;
}

const pass = (explanation: string): DoctorVerdict => ({ grade: 'pass', explanation });
const warn = (explanation: string): DoctorVerdict => ({ grade: 'warn', explanation });
const fail = (explanation: string): DoctorVerdict => ({ grade: 'fail', explanation });

/** No answer at all fails every case: the sender would retry it as a delivery failure. */
function unanswered(o: DoctorObservation, what: string): DoctorVerdict | null {
  return o.status === null ? fail(`${what}: ${o.error ?? 'no answer'}`) : null;
}

/** Cases whose healthy answer is 2xx for every request. */
function expectAccepted(
  observations: readonly DoctorObservation[],
  what: (i: number) => string,
  onRefused: string,
): DoctorVerdict {
  for (let i = 0; i < observations.length; i++) {
    const o = observations[i];
    const none = unanswered(o, what(i));
    if (none) return none;
    if (!is2xx(o.status)) return fail(`${what(i)}: HTTP ${o.status}; ${onRefused}`);
  }
  const statuses = observations.map((o) => o.status).join(', ');
  return pass(
    observations.length === 1
      ? `HTTP ${statuses}`
      : observations.length === 2
        ? `both answered 2xx (${statuses})`
        : `every copy answered 2xx (${statuses})`,
  );
}

/** Signature and timestamp refusals: 401/403 is right; another 4xx still stops retries; 2xx or 5xx is wrong. */
function expectAuthRefusal(o: DoctorObservation, accepted: string, ideal: readonly number[]): DoctorVerdict {
  const none = unanswered(o, 'no answer');
  if (none) return none;
  const s = o.status as number;
  if (is2xx(s)) return fail(`HTTP ${s}: ${accepted}`);
  if (ideal.includes(s)) return pass(`refused with HTTP ${s}`);
  if (is4xx(s))
    return warn(`refused, but with HTTP ${s}; ${ideal.join(' or ')} tells the sender it is a credentials problem`);
  if (is5xx(s)) return fail(`HTTP ${s}: a refusal must be a 4xx; a 5xx is retried for days`);
  return fail(`HTTP ${s}: expected ${ideal.join(' or ')}`);
}

/** Malformed input: 400 (or 422) is right; a 5xx gets it retried for days; a 2xx acknowledges what cannot be used. */
function expectBadRequest(o: DoctorObservation, acknowledged: string): DoctorVerdict {
  const none = unanswered(o, 'no answer');
  if (none) return none;
  const s = o.status as number;
  if (s === 400 || s === 422) return pass(`refused with HTTP ${s}`);
  if (is4xx(s)) return warn(`refused with HTTP ${s}; 400 says plainly that the payload is at fault`);
  if (is2xx(s)) return warn(`HTTP ${s}: ${acknowledged}`);
  if (is5xx(s)) return fail(`HTTP ${s}: a 5xx makes the sender retry the same broken event for days; answer 400`);
  return fail(`HTTP ${s}: expected 400`);
}

/**
 * Grades one case from every response it got, in the order sent.
 *
 * @example
 * gradeCase('corrupted_json', [{ status: 500, durationMs: 3, error: null }], { timeoutMs: 10_000 }).grade // 'fail'
 */
export function gradeCase(
  id: DoctorCaseId,
  observations: readonly DoctorObservation[],
  ctx: { timeoutMs: number },
): DoctorVerdict {
  if (observations.length === 0) throw new Error(`gradeCase(${id}) needs at least one observation`);
  const [first] = observations;
  switch (id) {
    case 'valid_event': {
      if (first.status === null) return fail(first.error ?? `no answer within ${ctx.timeoutMs} ms`);
      if (!is2xx(first.status)) return fail(`HTTP ${first.status} for a valid, correctly signed event`);
      const ms = first.durationMs;
      if (ms > TOO_SLOW_ANSWER_MS)
        return fail(
          `HTTP ${first.status} after ${ms} ms, above ${TOO_SLOW_ANSWER_MS / 1000} s: senders time out and retry`,
        );
      if (ms > SLOW_ANSWER_MS) return warn(`HTTP ${first.status} after ${ms} ms, above ${SLOW_ANSWER_MS / 1000} s`);
      return pass(`HTTP ${first.status} in ${ms} ms`);
    }
    case 'duplicates':
      return expectAccepted(
        observations,
        (i) => `copy ${i + 1} of ${observations.length}`,
        'a duplicate must be answered 2xx again, or the sender keeps retrying it',
      );
    case 'bad_signature':
      return expectAuthRefusal(first, 'accepted a request with a bad signature: anyone can forge events', [401, 403]);
    case 'tampered_body':
      return expectAuthRefusal(
        first,
        'accepted a body changed after signing: the signature is not checked over the raw bytes',
        [401, 403],
      );
    case 'stale_timestamp':
      return expectAuthRefusal(
        first,
        'accepted a request signed 10 minutes ago: a captured request can be replayed',
        [400, 401, 403],
      );
    case 'future_timestamp':
      return expectAuthRefusal(first, 'accepted a request signed 10 minutes in the future', [400, 401, 403]);
    case 'corrupted_json':
      return expectBadRequest(
        first,
        'acknowledged a body that is not JSON; the sender will never resend what it meant',
      );
    case 'missing_required_field':
      return expectBadRequest(
        first,
        'acknowledged an event without a required field; the sender will not retry and the work will trip over it later',
      );
    case 'unknown_event_type':
      return expectAccepted(observations, () => 'an unknown event type', 'acknowledge types you do not handle');
    case 'extra_optional_field':
      return expectAccepted(
        observations,
        () => 'an extra optional field',
        'an added field must not break the receiver',
      );
    case 'previous_secret':
      return expectAccepted(
        observations,
        () => 'signed only with the previous secret',
        'the previous secret must stay valid during the rotation overlap',
      );
    case 'out_of_order':
      return expectAccepted(
        observations,
        (i) => (i === 0 ? 'the newer version' : 'the older version, arriving second'),
        'a stale version must be acknowledged, not refused',
      );
  }
}
