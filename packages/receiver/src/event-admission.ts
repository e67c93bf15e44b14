// A verified request's own faults, before any write: the body parses, the signed id matches, the type is there and
// the payload meets the type's contract. The handler answers what this refuses and stores what it admits.
import { validateContract } from './contract.ts';
import { ReceiverError } from './errors.ts';
import type { SignedRequest } from './signed-request.ts';
import type { EventContract } from './webhook-event.ts';

/** An admitted event: its parsed payload, its type, and the type's contract (none: an unknown type, acknowledged). */
export interface AdmittedEvent {
  payload: unknown;
  type: string;
  contract: EventContract | undefined;
}

/** Parse, check the signed id, find the contract, validate; the first fault as the error to answer with. */
export function admitEvent(
  rawBody: string | Uint8Array,
  signed: SignedRequest,
  eventId: string,
  events: Readonly<Record<string, EventContract>>,
  eventType: (payload: unknown) => unknown,
): ReceiverError | AdmittedEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(
      typeof rawBody === 'string'
        ? rawBody
        : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8'),
    );
  } catch {
    return new ReceiverError('malformed_json');
  }
  // X-Webhook-Id is not covered by the hookline signature; the signed envelope's id is.
  const bodyId = (payload as { event_id?: unknown } | null)?.event_id;
  if (signed.scheme === 'hookline' && bodyId !== undefined && bodyId !== eventId)
    return new ReceiverError('event_id_mismatch');
  const type = eventType(payload);
  if (typeof type !== 'string' || type === '') return new ReceiverError('missing_required_field', { path: 'type' });
  const contract = Object.hasOwn(events, type) ? events[type] : undefined;
  if (contract?.schema !== undefined) {
    const violation = validateContract(contract.schema, payload);
    if (violation !== undefined) {
      return violation.kind === 'missing'
        ? new ReceiverError('missing_required_field', { path: violation.path })
        : new ReceiverError('invalid_field', { path: violation.path, detail: violation.detail });
    }
  }
  return { payload, type, contract };
}
