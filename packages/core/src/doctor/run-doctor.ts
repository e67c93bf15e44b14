// Runs the doctor's cases against one receiver URL with the engine's sender and signer, within 30 requests and 60 s.
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import type { Scheme } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { DoctorEvents, type DoctorTarget, planCase } from './case-requests.ts';
import { DOCTOR_CASES, type DoctorCaseId, type DoctorCaseInfo } from './cases.ts';
import { type DoctorGrade, gradeCase } from './grade.ts';

/** The caps the issue sets; callers may lower them (tests), never raise them. */
export const DOCTOR_MAX_REQUESTS = 30;
export const DOCTOR_MAX_DURATION_MS = 60_000;
/** Per-request timeout when the caller names none: the valid event fails above 10 s anyway. */
export const DOCTOR_DEFAULT_TIMEOUT_MS = 10_000;
/** What the doctor needs of an HTTP client: the engine's sender (SSRF guard, deadline, capped excerpt). */
export interface DoctorSender {
  send(request: {
    url: string;
    headers: Record<string, string>;
    body: Buffer;
    timeoutMs: number;
  }): Promise<Pick<SendResult, 'status' | 'durationMs' | 'errorClass' | 'errorMessage'>>;
}

export interface DoctorRunOptions {
  readonly sender: DoctorSender;
  readonly clock?: Clock;
  /** At most 30. */
  readonly maxRequests?: number;
  /** At most 60 s. */
  readonly maxDurationMs?: number;
}

export interface DoctorRequestRecord {
  readonly eventId: string;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

export interface DoctorCaseResult {
  readonly id: DoctorCaseId;
  readonly number: string;
  readonly title: string;
  readonly grade: DoctorGrade;
  readonly explanation: string;
  /** False when the case cannot apply to this receiver (no schema, no previous secret); such cases leave the score. */
  readonly applicable: boolean;
  /** The case's advice, for cases that warn or fail. */
  readonly advice: string | null;
  readonly requests: readonly DoctorRequestRecord[];
}

export type DoctorStop = 'max_requests' | 'max_duration' | 'refused_address';

export interface DoctorReport {
  readonly url: string;
  readonly scheme: Scheme;
  readonly eventType: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly requestsSent: number;
  readonly limits: { readonly maxRequests: number; readonly maxDurationMs: number; readonly timeoutMs: number };
  /** Why the run ended before every case ran; null when they all did. */
  readonly stoppedBy: DoctorStop | null;
  readonly score: {
    readonly passed: number;
    readonly applicable: number;
    readonly warned: number;
    readonly failed: number;
    readonly skipped: number;
  };
  readonly cases: readonly DoctorCaseResult[];
  /** What to fix, worst first: every failing case, then every warning, with its case's advice. */
  readonly fixes: ReadonlyArray<{
    readonly number: string;
    readonly title: string;
    readonly grade: 'fail' | 'warn';
    readonly advice: string;
  }>;
}

/**
 * Runs every case in order and grades it. Never sends to anything but `target.url`; stops at the request and time caps.
 *
 * @example
 * const report = await runDoctor({ url, scheme: 'hookline', secrets: [{ kid: 'k1', secret }] }, { sender: createSender() });
 * report.score // { passed: 10, applicable: 11, … }
 */
export async function runDoctor(target: DoctorTarget, options: DoctorRunOptions): Promise<DoctorReport> {
  if (target.secrets.length === 0) throw new TypeError('the doctor needs at least one signing secret');
  const clock = options.clock ?? systemClock;
  const maxRequests = Math.min(
    Math.max(0, Math.floor(options.maxRequests ?? DOCTOR_MAX_REQUESTS)),
    DOCTOR_MAX_REQUESTS,
  );
  const maxDurationMs = Math.min(Math.max(0, options.maxDurationMs ?? DOCTOR_MAX_DURATION_MS), DOCTOR_MAX_DURATION_MS);
  const timeoutMs = Math.max(1, Math.min(target.timeoutMs ?? DOCTOR_DEFAULT_TIMEOUT_MS, DOCTOR_MAX_DURATION_MS));
  const startedAt = clock.now();
  const deadline = startedAt + maxDurationMs;
  const events = new DoctorEvents(target, clock);

  const results: DoctorCaseResult[] = [];
  let sent = 0;
  let stoppedBy: DoctorStop | null = null;

  for (const info of DOCTOR_CASES) {
    const plan = planCase(info.id, target, events);
    if (plan.kind === 'skip') {
      results.push({
        ...base(info),
        grade: 'skip',
        explanation: plan.reason,
        applicable: false,
        advice: null,
        requests: [],
      });
      continue;
    }
    if (stoppedBy !== null) {
      results.push(notRun(info, stopReason(stoppedBy, maxRequests, maxDurationMs)));
      continue;
    }
    // A case runs whole or not at all: a duplicate test of one copy proves nothing.
    if (sent + plan.requests.length > maxRequests) {
      stoppedBy = 'max_requests';
      results.push(notRun(info, stopReason(stoppedBy, maxRequests, maxDurationMs)));
      continue;
    }
    const records: DoctorRequestRecord[] = [];
    for (const build of plan.requests) {
      const left = deadline - clock.now();
      if (left < 1) {
        stoppedBy = 'max_duration';
        break;
      }
      const { eventId, headers, body } = build(Math.floor(clock.now() / 1000));
      sent++;
      const result = await options.sender.send({
        url: target.url,
        headers,
        body,
        timeoutMs: Math.min(timeoutMs, left),
      });
      const record = observe(eventId, result);
      records.push(record);
      if (result.errorClass === 'refused_address') {
        stoppedBy = 'refused_address';
        break;
      }
    }
    if (records.length < plan.requests.length && stoppedBy !== 'refused_address') {
      const explanation = `cut short: the doctor's ${maxDurationMs / 1000} s budget ran out after ${records.length} of ${plan.requests.length} requests`;
      results.push({ ...base(info), grade: 'skip', explanation, applicable: true, advice: null, requests: records });
      continue;
    }
    const verdict = gradeCase(info.id, records, { timeoutMs });
    results.push({
      ...base(info),
      ...verdict,
      applicable: true,
      advice: verdict.grade === 'pass' ? null : info.advice,
      requests: records,
    });
  }

  const count = (g: DoctorGrade) => results.filter((r) => r.grade === g).length;
  const fixes = [...results.filter((r) => r.grade === 'fail'), ...results.filter((r) => r.grade === 'warn')].map(
    (r) => ({
      number: r.number,
      title: r.title,
      grade: r.grade as 'fail' | 'warn',
      advice: r.advice ?? '',
    }),
  );
  return {
    url: target.url,
    scheme: target.scheme,
    eventType: events.type,
    startedAt,
    durationMs: clock.now() - startedAt,
    requestsSent: sent,
    limits: { maxRequests, maxDurationMs, timeoutMs },
    stoppedBy,
    score: {
      passed: count('pass'),
      applicable: results.filter((r) => r.applicable).length,
      warned: count('warn'),
      failed: count('fail'),
      skipped: count('skip'),
    },
    cases: results,
    fixes,
  };
}

function base(info: DoctorCaseInfo) {
  return { id: info.id, number: info.number, title: info.title };
}

function notRun(info: DoctorCaseInfo, reason: string): DoctorCaseResult {
  return { ...base(info), grade: 'skip', explanation: reason, applicable: true, advice: null, requests: [] };
}

function stopReason(stop: DoctorStop, maxRequests: number, maxDurationMs: number): string {
  if (stop === 'max_requests') return `not run: the doctor's cap of ${maxRequests} requests was reached`;
  if (stop === 'max_duration')
    return `not run: the doctor's ${maxDurationMs / 1000} s budget ran out (the receiver answers too slowly)`;
  return 'not run: the target address is refused by the SSRF rules';
}

function observe(
  eventId: string,
  r: Pick<SendResult, 'status' | 'durationMs' | 'errorClass' | 'errorMessage'>,
): DoctorRequestRecord {
  // Headers that arrived before the body timed out are no answer: the sender counts it as a failure too.
  const answered = r.status !== null && (r.errorClass === null || r.errorClass === 'status');
  return {
    eventId,
    status: answered ? r.status : null,
    durationMs: r.durationMs,
    error: answered ? null : `${r.errorClass ?? 'error'}: ${r.errorMessage ?? 'no answer'}`,
  };
}
