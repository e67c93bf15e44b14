// Adapter for node:http (and anything exposing IncomingMessage/ServerResponse).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReceiverError } from '../errors.ts';
import type { WebhookHandler } from '../handler.ts';
import { answerFor, type WebhookResponse } from '../webhook-answer.ts';
import { type BodyLimits, readNodeBody } from './read-body.ts';

/**
 * A `(req, res)` listener: reads the raw body (bounded), runs the handler, writes its answer.
 *
 * @example
 * http.createServer(nodeHttpWebhook(createWebhookHandler({ secrets, store, events }))).listen(3000);
 */
export function nodeHttpWebhook(
  handler: WebhookHandler,
  limits: BodyLimits = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    receiveNode(handler, req, undefined, limits).then(
      (answer) => writeNodeResponse(res, answer),
      (error: unknown) => {
        // Only a misconfiguration gets here; the handler itself never rejects.
        process.stderr.write(
          `${JSON.stringify({
            level: 'error',
            msg: 'webhook adapter failed',
            code: 'internal_error',
            reason: String(error),
          })}\n`,
        );
        writeNodeResponse(res, answerFor(new ReceiverError('internal_error')));
      },
    );
  };
}

/**
 * Shared by the node-based adapters: uses `body` when a framework already read the raw bytes.
 *
 * @example
 * const answer = await receiveNode(handler, req, req.body, limits);
 */
export async function receiveNode(
  handler: WebhookHandler,
  req: IncomingMessage,
  body: unknown,
  limits: BodyLimits,
): Promise<WebhookResponse> {
  if (req.method !== 'POST') return handler.refuse(new ReceiverError('method_not_allowed'), req.headers);
  let rawBody: Buffer | string;
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    rawBody = body;
  } else if (body !== undefined && body !== null && req.readableEnded) {
    // A JSON parser ran first: the signed bytes are gone and cannot be rebuilt faithfully.
    throw new TypeError(
      'webhook body was already parsed; mount the webhook route before any JSON body parser, or use express.raw()',
    );
  } else {
    try {
      rawBody = await readNodeBody(req, req.headers, limits);
    } catch (error) {
      if (error instanceof ReceiverError) return handler.refuse(error, req.headers);
      throw error;
    }
  }
  return handler({ headers: req.headers, rawBody });
}

/** Writes a handler answer to a Node response. */
export function writeNodeResponse(res: ServerResponse, answer: WebhookResponse): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}
