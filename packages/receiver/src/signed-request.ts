// What a verified request tells us: the scheme, the ids and the signed timestamp.

/** The outcome of a successful signature check. */
export interface SignedRequest {
  readonly scheme: 'hookline' | 'standard';
  /** `X-Webhook-Id` / `webhook-id`: the id to deduplicate on. */
  readonly eventId: string | undefined;
  /** `X-Webhook-Delivery` (hookline only), stable across a delivery's attempts. */
  readonly deliveryId: string | undefined;
  /** Signed timestamp, unix seconds. */
  readonly timestamp: number;
  /** Key id of the secret that matched, when known. */
  readonly kid: string | undefined;
}
