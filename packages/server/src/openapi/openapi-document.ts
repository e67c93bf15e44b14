// Builds the OpenAPI 3.1 document from the route schemas collected as routes are added (no plugin needed).
import type { RouteOptions } from 'fastify';

type Schema = Record<string, unknown>;

export const GENERATED_NOTE = 'Generated from the route schemas by `npm run openapi -w @hookline/server`; do not edit packages/server/openapi.json by hand.';

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No Content', '4XX': 'Client error (see docs/errors.md)', '5XX': 'Server error (see docs/errors.md)',
};

/** Fastify route options as seen by an onRoute hook; only those with a schema are documented. */
export function collectRoutes(target: RouteOptions[]): (route: RouteOptions) => void {
  return (route) => {
    if (route.schema && !(route.method === 'HEAD' || (Array.isArray(route.method) && route.method.includes('HEAD')))) target.push(route);
  };
}

function parameters(where: 'path' | 'query', schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

export function buildOpenApi(routes: readonly RouteOptions[], version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const s = r.schema as Schema;
    const url = r.url.replace(/:(\w+)/g, '{$1}');
    const auth = (r.config as { auth?: string } | undefined)?.auth ?? 'public';
    const responses: Record<string, Schema> = {};
    for (const [code, schema] of Object.entries((s.response ?? {}) as Record<string, Schema>)) {
      const key = code.toUpperCase();
      const { description, ...body } = schema;
      const text = body.type === 'string';
      responses[key] = {
        description: (description as string | undefined) ?? STATUS_TEXT[key] ?? 'Response',
        ...(body.type === 'null' ? {} : { content: { [text ? 'text/plain' : 'application/json']: { schema: body } } }),
      };
    }
    const op: Schema = {
      operationId: s.operationId,
      summary: s.summary,
      ...(s.description ? { description: s.description } : {}),
      tags: s.tags,
      security: auth === 'public' ? [] : [{ bearer: [] }],
      ...(auth === 'admin' ? { 'x-hookline-auth': 'admin token only' } : auth === 'tenant' ? { 'x-hookline-auth': 'admin token or an API key of the tenant in the path' } : {}),
    };
    const params = [...parameters('path', s.params as Schema | undefined), ...parameters('query', s.querystring as Schema | undefined)];
    if (params.length) op.parameters = params;
    if (s.body) op.requestBody = { required: !(Array.isArray((s.body as Schema).type) && ((s.body as Schema).type as string[]).includes('null')), content: { 'application/json': { schema: s.body } } };
    op.responses = responses;
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) (paths[url] ??= {})[m.toLowerCase()] = op;
  }
  const sorted = Object.fromEntries(Object.keys(paths).sort().map((k) => [k, paths[k]]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hookline API',
      version,
      description: `Self-hosted webhook delivery. Errors are {"error":{"code","message","request_id"}} (docs/errors.md); validation errors add details: [{in, path (JSON Pointer), message}], one per problem. ${GENERATED_NOTE}`,
    },
    'x-generated': GENERATED_NOTE,
    servers: [{ url: 'http://127.0.0.1:8080' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The admin token, or a tenant API key (hk_test_… for a test tenant, hk_live_… for a live one) that reaches only its own tenant.' },
      },
    },
    paths: sorted,
  };
}
