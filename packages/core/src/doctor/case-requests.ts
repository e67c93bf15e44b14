// What each doctor case sends: the doctor's signed events (ids prefixed `doctor_`, the doctor header, the target's
// scheme) and, per case, the requests built at send time (docs/rules.md#tool-doctor).
import type { Clock } from '../clock.ts';
import type { Scheme } from '../domain.ts';
import { newId } from '../ids.ts';
import { generateEd25519Secret, isEd25519Secret } from '../signing/ed25519-keys.ts';
import { type SigningSecret, signHeaders } from '../signing/sign-headers.ts';
import { generateSecret } from '../signing/signing-keys.ts';
import type { DoctorCaseId } from './cases.ts';
import { requiredFields, sampleFromSchema } from './contract-sample.ts';

/** Marks every doctor request, so a receiver's logs can tell it from real traffic. */
export const DOCTOR_HEADER = 'X-Webhook-Doctor';
/** Prefix of every event id (and delivery id) the doctor sends. */
export const DOCTOR_ID_PREFIX = 'doctor_';
/** The type of the doctor's events when no contract names one. */
export const DOCTOR_DEFAULT_TYPE = 'doctor.check';
const UNKNOWN_TYPE = 'doctor.unknown_event_type';
const EXTRA_FIELD = 'doctor_extra_field';
const TEN_MINUTES_S = 600;

/** The receiver the doctor checks, and what its requests are signed with. */
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

/** One request of a case: built at send time so its timestamp is the moment it leaves. */
export type Planned = (nowSec: number) => { eventId: string; headers: Record<string, string>; body: Buffer };

export type Plan = { kind: 'send'; requests: Planned[] } | { kind: 'skip'; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds the doctor's signed events: ids prefixed `doctor_`, the doctor header, the target's scheme. */
export class DoctorEvents {
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

/** What a case sends (each request built at send time), or why it is skipped. */
export function planCase(id: DoctorCaseId, target: DoctorTarget, ev: DoctorEvents): Plan {
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
