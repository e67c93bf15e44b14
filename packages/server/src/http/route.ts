// Declares a route once: its JSON schemas (validation, serialisation and the OpenAPI document) and its auth rule.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AuthRule } from './auth.ts';
import { ErrorSchema } from './views.ts';

type Schema = Record<string, unknown>;

export interface RouteSpec<P, Q, B> {
  method: HTTPMethods;
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthRule;
  params?: Schema;
  querystring?: Schema;
  body?: Schema;
  /** Success responses by status; error responses (4XX/5XX) are added for every route. */
  response: Record<number, Schema>;
  bodyLimit?: number;
  handler: (req: FastifyRequest<{ Params: P; Querystring: Q; Body: B }>, reply: FastifyReply) => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
  }
}

export function addRoute<P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(
  app: FastifyInstance,
  spec: RouteSpec<P, Q, B>,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    config: { auth: spec.auth },
    schema: {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [spec.tag],
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: { ...spec.response, '4xx': ErrorSchema, '5xx': ErrorSchema },
    },
    handler: spec.handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

/** Path params of `/v1/tenants/:tenant/…` routes. */
export function paramsSchema(...names: string[]): Schema {
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', minLength: 1, maxLength: 255 }])),
  };
}

/** The largest page any list route returns; the CLI's `--limit` checks against the same number. */
export const MAX_PAGE_LIMIT = 200;

export const pagingQuery = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 50 },
  cursor: { type: 'string', maxLength: 64, description: 'next_cursor of the previous page' },
} as const;
