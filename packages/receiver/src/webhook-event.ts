// The receiver's public shapes of an event: what a handler is given, and what it declares per event type
// (shared by the handler and the inbox, which both run contracts).
import type { JsonSchema, SchemaPayload } from './contract.ts';
import type { SignedRequest } from './signed-request.ts';

/** One verified, recorded, validated event as the worker receives it. */
export interface WebhookEvent<Payload = any> {
  readonly id: string;
  readonly deliveryId: string | undefined;
  readonly type: string;
  readonly payload: Payload;
  readonly rawBody: string | Uint8Array;
  /** 1 on the first run; higher when a failed or crashed run is re-run. */
  readonly attempt: number;
  readonly scheme: SignedRequest['scheme'];
  /** The headers kept with the event (ids, timestamp, signature, content type), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** When the receiver accepted it, ms. */
  readonly receivedAt: number;
}

/** What the receiver accepts for one event type: its contract and the work it triggers. */
export interface EventContract<Payload = any> {
  schema?: JsonSchema;
  /**
   * With an inbox: run by the inbox worker from the stored copy; resolve = done, throw = retried with backoff.
   * With a dedup `store`: runs after the answer (default ackMode); throw = failed, re-run on the next delivery.
   */
  handle(event: WebhookEvent<Payload>): Promise<void> | void;
}

/**
 * An event type's contract with `event.payload` typed: from its `schema` (written inline, no `as const` needed), or
 * from the type you name when there is no schema. It returns the contract as given; the typing is the point.
 *
 * @example
 * const events = {
 *   'order.shipped': defineEvent({
 *     schema: { type: 'object', required: ['data'], properties: { data: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } } } },
 *     handle: (event) => ship(event.payload.data.order_id), // string
 *   }),
 *   'refund.created': defineEvent<{ data: { refund_id: string } }>({ handle: (event) => refund(event.payload.data.refund_id) }),
 * };
 */
export function defineEvent<const S extends JsonSchema>(contract: {
  schema: S;
  handle(event: WebhookEvent<SchemaPayload<S>>): Promise<void> | void;
}): EventContract<SchemaPayload<S>>;
export function defineEvent<Payload = unknown>(contract: {
  schema?: JsonSchema;
  handle(event: WebhookEvent<Payload>): Promise<void> | void;
}): EventContract<Payload>;
export function defineEvent(contract: EventContract): EventContract {
  return contract;
}
