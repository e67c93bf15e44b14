// Runs the doctor's cases against one receiver URL with the engine's sender and signer, within 30 requests and 60 s.
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import type { Scheme } from '../domain.ts';
import type { SendResult } from '../http/sender.ts';
import { newId } from '../ids.ts';
import { generateEd25519Secret, isEd25519Secret } from '../signing/ed25519-keys.ts';
import { type SigningSecret, signHeaders } from '../signing/sign-headers.ts';
import { generateSecret } from '../signing/signing-keys.ts';
import { DOCTOR_CASES, type DoctorCaseId, type DoctorCaseInfo } from './cases.ts';
import { requiredFields, sampleFromSchema } from './contract-sample.ts';
import { type DoctorGrade, gradeCase } from './grade.ts';

/** The caps the issue sets; callers may lower them (tests), never raise them. */
export const DOCTOR_MAX_REQUESTS = 30;
export const DOCTOR_MAX_DURATION_MS = 60_000;
/** Per-request timeout when the caller names none: the valid event fails above 10 s anyway. */
export const DOCTOR_DEFAULT_TIMEOUT_MS = 10_000;
/** Marks every doctor request, so a receiver's logs can tell it from real traffic. */
export const DOCTOR_HEADER = 'X-Webhook-Doctor';
/** Prefix of every event id (and delivery id) the doctor sends. */
export const DOCTOR_ID_PREFIX = 'doctor_';
/** The type of the doctor's events when no contract names one. */
export const DOCTOR_DEFAULT_TYPE = 'doctor.check';
const UNKNOWN_TYPE = 'doctor.unknown_event_type';
const EXTRA_FIELD = 'doctor_extra_field';
const TEN_MINUTES_S = 600;

export interface DoctorTarget {
  readonly url: string;
  readonly scheme: Scheme;
  /** What deliveries are signed with: every live secret, current first. */
  readonly secrets: readonly SigningSecret[];
  /** The secret a rotation is retiring (case 9); without it that case is skipped. */
  readonly previousSecret?: SigningSecret | null;
  /** The event type the doctor's events carry; default `doctor.check`. */
  readonly eventType?: string;
  readonly version?: string;
  /** `data` of the doctor's events; default a sample of `schema`, or a small object. */
  readonly example?: unknown;
  /** The type's JSON Schema for `data`; its required fields drive case 6 (skipped without one). */
  readonly schema?: unknown;
  /** Per-request timeout; default 10 s. Never beyond what is left of the run's budget. */
  readonly timeoutMs?: number;
}

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

/** One request of a case: built at send time so its timestamp is the moment it leaves. */
type Planned = (nowSec: number) => { eventId: string; headers: Record<string, string>; body: Buffer };

type Plan = { kind: 'send'; requests: Planned[] } | { kind: 'skip'; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** Builds the doctor's signed events: ids prefixed `doctor_`, the doctor header, the target's scheme. */
class DoctorEvents {
  readonly type: string;
  readonly version: string;
  readonly data: unknown;
  constructor(
    readonly target: DoctorTarget,
    readonly clock: Clock,
  ) {
    this.type = target.eventType ?? DOCTOR_DEFAULT_TYPE;
    this.version = target.version ?? '1';
    this.data =
      target.example !== undefined
        ? target.example
        : target.schema !== undefined && target.schema !== null
          ? sampleFromSchema(target.schema)
          : { message: 'hookline doctor check' };
  }

  ids(): { eventId: string; deliveryId: string } {
    const now = this.clock.now();
    return { eventId: DOCTOR_ID_PREFIX + newId('evt', now), deliveryId: DOCTOR_ID_PREFIX + newId('dlv', now) };
  }

  body(
    eventId: string,
    fields: { type?: string; occurredAt?: number; data?: unknown; extra?: Record<string, unknown> } = {},
  ): Buffer {
    const envelope = {
      event_id: eventId,
      type: fields.type ?? this.type,
      version: this.version,
      occurred_at: new Date(fields.occurredAt ?? this.clock.now()).toISOString(),
      data: fields.data !== undefined ? fields.data : this.data,
      ...fields.extra,
    };
    return Buffer.from(spacedJson(envelope));
  }

  sign(
    ids: { eventId: string; deliveryId: string },
    timestampSec: number,
    body: Buffer,
    secrets: readonly SigningSecret[] = this.target.secrets,
  ): Record<string, string> {
    return {
      ...signHeaders({ scheme: this.target.scheme, ...ids, timestampSec, body, secrets }),
      [DOCTOR_HEADER]: '1',
    };
  }

  /** A request whose body and signature come from `make`, which sees the send time. */
  request(
    ids: { eventId: string; deliveryId: string },
    make: (nowSec: number) => { headers: Record<string, string>; body: Buffer },
  ): Planned {
    return (nowSec) => ({ eventId: ids.eventId, ...make(nowSec) });
  }

  /** The common case: a fresh valid event signed with every secret at send time. */
  signed(
    ids: { eventId: string; deliveryId: string },
    body: Buffer,
    shiftSec = 0,
    secrets?: readonly SigningSecret[],
  ): Planned {
    return this.request(ids, (nowSec) => ({ headers: this.sign(ids, nowSec + shiftSec, body, secrets), body }));
  }
}

/**
 * JSON with a space after every `:` and `,` (the layout many providers send): valid JSON that JSON.stringify does not
 * reproduce, so a receiver that verifies a re-serialisation of the parsed body instead of the raw bytes is caught.
 */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => spacedJson(v === undefined ? null : v)).join(', ')}]`;
  if (isObject(value)) {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value))
      if (v !== undefined) parts.push(`${JSON.stringify(k)}: ${spacedJson(v)}`);
    return `{${parts.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function planCase(id: DoctorCaseId, target: DoctorTarget, ev: DoctorEvents): Plan {
  const send = (...requests: Planned[]): Plan => ({ kind: 'send', requests });
  switch (id) {
    case 'valid_event': {
      const ids = ev.ids();
      return send(ev.signed(ids, ev.body(ids.eventId)));
    }
    case 'duplicates': {
      // The same ids and bytes, as a retry sends them; each copy is signed at its own time.
      const ids = ev.ids();
      const body = ev.body(ids.eventId);
      return send(ev.signed(ids, body), ev.signed(ids, body), ev.signed(ids, body));
    }
    case 'bad_signature': {
      const ids = ev.ids();
      const body = ev.body(ids.eventId);
      // A wrong key of the same kind: an ed25519 endpoint's receiver holds a public key, a wrong HMAC would not test it.
      const wrong = target.secrets.map((s) => ({
        kid: s.kid,
        secret: isEd25519Secret(s.secret) ? generateEd25519Secret() : generateSecret(),
      }));
      return send(ev.signed(ids, body, 0, wrong));
    }
    case 'tampered_body': {
      const ids = ev.ids();
      const occurredAt = ev.clock.now();
      const body = ev.body(ids.eventId, { occurredAt });
      // One digit of occurred_at's milliseconds: still valid JSON and a valid time, so only the signature can tell.
      const iso = new Date(occurredAt).toISOString();
      const at = body.indexOf(iso) + iso.length - 2;
      const tampered = Buffer.from(body);
      tampered[at] = 0x30 + ((tampered[at] - 0x30 + 1) % 10);
      return send(ev.request(ids, (nowSec) => ({ headers: ev.sign(ids, nowSec, body), body: tampered })));
    }
    case 'stale_timestamp': {
      const ids = ev.ids();
      return send(ev.signed(ids, ev.body(ids.eventId), -TEN_MINUTES_S));
    }
    case 'future_timestamp': {
      const ids = ev.ids();
      return send(ev.signed(ids, ev.body(ids.eventId), TEN_MINUTES_S));
    }
    case 'corrupted_json': {
      const ids = ev.ids();
      const body = ev.body(ids.eventId);
      // The closing brace dropped: what a truncating proxy delivers. Signed as sent, so only the parser can object.
      return send(ev.signed(ids, body.subarray(0, body.length - 1)));
    }
    case 'missing_required_field': {
      if (target.schema === undefined || target.schema === null)
        return { kind: 'skip', reason: 'no schema for the event type is known, so no field is required' };
      const required = requiredFields(target.schema);
      if (!isObject(ev.data)) return { kind: 'skip', reason: 'the event data is not an object' };
      const data = ev.data;
      const field = required.find((name) => Object.hasOwn(data, name));
      if (field === undefined) return { kind: 'skip', reason: `the ${ev.type} schema requires no field of data` };
      const { [field]: _removed, ...rest } = data;
      const ids = ev.ids();
      return send(ev.signed(ids, ev.body(ids.eventId, { data: rest })));
    }
    case 'unknown_event_type': {
      const ids = ev.ids();
      return send(
        ev.signed(
          ids,
          ev.body(ids.eventId, { type: UNKNOWN_TYPE, data: { message: 'an event type this receiver has never seen' } }),
        ),
      );
    }
    case 'extra_optional_field': {
      const ids = ev.ids();
      const extra = 'added by hookline doctor; a receiver must ignore fields it does not know';
      const body = isObject(ev.data)
        ? ev.body(ids.eventId, { data: { ...ev.data, [EXTRA_FIELD]: extra } })
        : ev.body(ids.eventId, { extra: { [EXTRA_FIELD]: extra } });
      return send(ev.signed(ids, body));
    }
    case 'previous_secret': {
      const previous = target.previousSecret;
      if (previous === undefined || previous === null)
        return { kind: 'skip', reason: 'no previous secret (rotation overlap) to sign with' };
      const ids = ev.ids();
      return send(ev.signed(ids, ev.body(ids.eventId), 0, [previous]));
    }
    case 'out_of_order': {
      // Two states of one object: the newer (now) arrives first, the older (a minute before) second.
      const now = ev.clock.now();
      const newer = ev.ids();
      const older = ev.ids();
      return send(
        ev.signed(newer, ev.body(newer.eventId, { occurredAt: now })),
        ev.signed(older, ev.body(older.eventId, { occurredAt: now - 60_000 })),
      );
    }
  }
}
