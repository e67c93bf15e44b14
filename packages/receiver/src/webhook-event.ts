// The receiver's public shapes of an event: what a handler is given, and what it declares per event type
// (shared by the handler and the inbox, which both run contracts).
import type { JsonSchema } from './contract.ts';
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
export interface EventContract {
  schema?: JsonSchema;
  /**
   * With an inbox: run by the inbox worker from the stored copy; resolve = done, throw = retried with backoff.
   * With a dedup `store`: runs after the answer (default ackMode); throw = failed, re-run on the next delivery.
   */
  handle(event: WebhookEvent): Promise<void> | void;
}
