// The doctor's cases (docs/rules.md#tool-doctor): what each sends, what a healthy receiver answers, the advice if not.

export type DoctorCaseId =
  | 'valid_event'
  | 'duplicates'
  | 'bad_signature'
  | 'tampered_body'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'corrupted_json'
  | 'missing_required_field'
  | 'unknown_event_type'
  | 'extra_optional_field'
  | 'previous_secret'
  | 'out_of_order';

export interface DoctorCaseInfo {
  readonly id: DoctorCaseId;
  /** The number the report shows: 3 and 4 hold two checks each (3a, 3b, 4a, 4b). */
  readonly number: string;
  readonly title: string;
  /** Requests the case sends; the runner starts a case only when all of them fit its caps. */
  readonly requests: number;
  /** What to change when the case does not pass, in the terms of docs/rules.md#receiver. */
  readonly advice: string;
}

/** In the order they run. */
export const DOCTOR_CASES: readonly DoctorCaseInfo[] = [
  {
    id: 'valid_event',
    number: '1',
    title: 'a valid event is answered 2xx in time',
    requests: 1,
    advice:
      'Acknowledge fast: verify, store the event, answer 2xx, and do the slow work in a background worker; a slow answer makes the sender retry and turns one event into a storm.',
  },
  {
    id: 'duplicates',
    number: '2',
    title: 'the same event three times: every copy 2xx',
    requests: 3,
    advice:
      'Duplicates are normal: record each event_id in durable storage (a unique index) before any side effect, and answer a copy whose work is done with 2xx again, doing nothing.',
  },
  {
    id: 'bad_signature',
    number: '3a',
    title: 'a bad signature is refused with 401/403',
    requests: 1,
    advice:
      'Verify the HMAC over the raw body bytes with a constant-time comparison, and stop with 401 or 403 when it does not match: otherwise anyone can forge events.',
  },
  {
    id: 'tampered_body',
    number: '3b',
    title: 'a body changed by one byte is refused',
    requests: 1,
    advice:
      'Check the signature against the exact bytes that arrived, before any JSON parser or middleware touches them; never re-serialise the JSON to verify it.',
  },
  {
    id: 'stale_timestamp',
    number: '4a',
    title: 'a timestamp 10 minutes old is refused',
    requests: 1,
    advice:
      'Put the signed timestamp to use: reject a request outside a small window (5 minutes is usual) so a captured request cannot be replayed later; log "timestamp too old".',
  },
  {
    id: 'future_timestamp',
    number: '4b',
    title: 'a timestamp 10 minutes ahead is refused',
    requests: 1,
    advice:
      'Reject timestamps far in the future too, not only old ones: they mean a replay, a broken clock or a proxy that rewrote the request; log "timestamp too far ahead".',
  },
  {
    id: 'corrupted_json',
    number: '5',
    title: 'corrupted JSON with a valid signature gets 400, not 5xx',
    requests: 1,
    advice:
      'Parse after verifying and answer a body you cannot parse with 400: a 5xx tells the sender to retry the same broken event for days.',
  },
  {
    id: 'missing_required_field',
    number: '6',
    title: "a required field missing (from the type's schema) gets 400",
    requests: 1,
    advice:
      'Validate the fields your contract requires before acknowledging and answer 400 naming the missing one ("missing order_id"); reject only for fields you truly need.',
  },
  {
    id: 'unknown_event_type',
    number: '7',
    title: 'an unknown event type is acknowledged 2xx',
    requests: 1,
    advice:
      'Acknowledge event types you do not handle with 2xx and ignore them: a new type the provider adds must not be retried and dead-lettered on your side.',
  },
  {
    id: 'extra_optional_field',
    number: '8',
    title: 'an extra optional field is accepted 2xx',
    requests: 1,
    advice:
      'Schemas grow by adding fields: ignore the ones you do not know instead of refusing the event (no "additionalProperties: false" on what you receive).',
  },
  {
    id: 'previous_secret',
    number: '9',
    title: 'a request signed only with the previous secret is accepted',
    requests: 1,
    advice:
      'During a secret rotation accept both the current and the previous secret (pick by kid) until the old one retires at its fixed time.',
  },
  {
    id: 'out_of_order',
    number: '10',
    title: 'two versions of one object out of order (newer first): both 2xx',
    requests: 2,
    advice:
      'Events arrive out of order: compare occurred_at with the state you hold, keep the newer one, and still answer the stale event 2xx so it is not retried.',
  },
];

export function caseInfo(id: DoctorCaseId): DoctorCaseInfo {
  const info = DOCTOR_CASES.find((c) => c.id === id);
  if (info === undefined) throw new Error(`unknown doctor case ${id}`);
  return info;
}
