// Adapter for Express 4/5: reads the raw bytes itself, or takes them from express.raw().
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookHandler } from '../handler.ts';
import { receiveNode, writeNodeResponse } from './node-http.ts';
import type { BodyLimits } from './read-body.ts';

/** The parts of Express's request we touch; no type dependency on express. */
type ExpressRequest = IncomingMessage & { body?: unknown };

/**
 * Express middleware answering the webhook. Mount it before `express.json()` on its path, or
 * behind `express.raw({ type: '*\/*' })`; a body already parsed to an object fails loudly.
 *
 * @example
 * app.post('/webhooks', expressWebhook(createWebhookHandler({ secrets, store, events })));
 */
export function expressWebhook(
  handler: WebhookHandler,
  limits: BodyLimits = {},
): (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    receiveNode(handler, req, req.body, limits).then((answer) => writeNodeResponse(res, answer), next);
  };
}
