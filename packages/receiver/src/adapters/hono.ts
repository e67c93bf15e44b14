// Adapter for Hono: a route handler reading the raw bytes from the fetch Request.
import { ReceiverError } from '../errors.ts';
import type { WebhookHandler } from '../handler.ts';
import type { WebhookResponse } from '../webhook-answer.ts';
import { type BodyLimits, DEFAULT_MAX_BODY_BYTES, readWebBody } from './read-body.ts';

/** The part of Hono's Context we touch; no type dependency on hono. */
interface HonoContextLike {
  req: { raw: Request; arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * A Hono handler answering the webhook with a fetch `Response`.
 *
 * @example
 * app.post('/webhooks', honoWebhook(createWebhookHandler({ secrets, store, events })));
 */
export function honoWebhook(
  handler: WebhookHandler,
  limits: BodyLimits = {},
): (c: HonoContextLike) => Promise<Response> {
  return async (c) => {
    const request = c.req.raw;
    let rawBody: Buffer;
    try {
      // The stream is read with a byte bound; if middleware already consumed it, Hono's cache serves it.
      rawBody = request.bodyUsed
        ? await boundedCached(c, limits)
        : await readWebBody(request.body, request.headers.get('content-length'), limits);
    } catch (error) {
      if (error instanceof ReceiverError) return toResponse(handler.refuse(error, request.headers));
      throw error;
    }
    return toResponse(await handler({ headers: request.headers, rawBody }));
  };
}

async function boundedCached(c: HonoContextLike, limits: BodyLimits): Promise<Buffer> {
  const bytes = Buffer.from(await c.req.arrayBuffer());
  if (bytes.length > (limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)) throw new ReceiverError('payload_too_large');
  return bytes;
}

function toResponse(answer: WebhookResponse): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
