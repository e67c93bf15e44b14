// Adapter for Fastify 4/5: a plugin whose content-type parser keeps the raw Buffer, scoped to it.
import type { IncomingMessage } from 'node:http';
import { ReceiverError } from '../errors.ts';
import type { WebhookHandler } from '../handler.ts';
import type { WebhookResponse } from '../webhook-answer.ts';
import { type BodyLimits, DEFAULT_MAX_BODY_BYTES, readNodeBody } from './read-body.ts';

export interface FastifyWebhookOptions extends BodyLimits {
  /** Route path inside the plugin's prefix. Default `/`. */
  path?: string;
}

// Just enough of Fastify's API for this plugin; no type dependency on fastify.
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload: string): FastifyReplyLike;
}
interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(type: string, parser: (request: unknown, payload: IncomingMessage) => Promise<unknown>): void;
  setErrorHandler(handler: (error: unknown, request: unknown, reply: FastifyReplyLike) => unknown): void;
  post(
    path: string,
    options: { bodyLimit: number },
    handler: (
      request: { headers: Record<string, string | string[] | undefined>; body: unknown },
      reply: FastifyReplyLike,
    ) => Promise<unknown>,
  ): void;
}

/**
 * Registers a POST route answering webhooks. Register it without fastify-plugin so its
 * content-type parser (raw bytes, bounded) stays inside this scope and the app's JSON parsing is untouched.
 *
 * @example
 * await app.register(fastifyWebhook(createWebhookHandler({ secrets, store, events })), { prefix: '/webhooks' });
 */
export function fastifyWebhook(
  handler: WebhookHandler,
  options: FastifyWebhookOptions = {},
): (instance: FastifyInstanceLike) => Promise<void> {
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_request, payload) => readNodeBody(payload, payload.headers, options));
    instance.setErrorHandler((error, request, reply) => {
      const headers = (request as { headers: Record<string, string | string[] | undefined> }).headers;
      // Our body reader's 413/408, or Fastify's own parse errors, in the same JSON shape and log line.
      const refusal =
        error instanceof ReceiverError
          ? error
          : new ReceiverError(fastifyStatus(error) === 413 ? 'payload_too_large' : 'internal_error', { cause: error });
      return send(reply, handler.refuse(refusal, headers));
    });
    // Our reader enforces the limit; Fastify's own check is kept as a second guard.
    instance.post(
      options.path ?? '/',
      { bodyLimit: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES },
      async (request, reply) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return send(reply, await handler({ headers: request.headers, rawBody }));
      },
    );
  };
}

function fastifyStatus(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}

function send(reply: FastifyReplyLike, answer: WebhookResponse): FastifyReplyLike {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
