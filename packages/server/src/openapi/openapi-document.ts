// Builds the OpenAPI 3.1 document from the route schemas collected as routes are added (no plugin needed).
import type { RouteOptions } from 'fastify';
import { schemaName } from '../http/schema-names.ts';

type Schema = Record<string, unknown>;

export const GENERATED_NOTE =
  'Generated from the route schemas by `npm run openapi -w @hookline/server`; do not edit packages/server/openapi.json by hand.';

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '4XX': 'Client error (see docs/errors.md)',
  '5XX': 'Server error (see docs/errors.md)',
};

/** Fastify route options as seen by an onRoute hook; only those with a schema are documented. */
export function collectRoutes(target: RouteOptions[]): (route: RouteOptions) => void {
  return (route) => {
    if (route.schema && !(route.method === 'HEAD' || (Array.isArray(route.method) && route.method.includes('HEAD'))))
      target.push(route);
  };
}

function parameters(where: 'path' | 'query', schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/**
 * components.schemas and the `$ref`s into it: a schema named with `named()` is listed once under its name wherever it
 * appears; a request or response body with no name of its own is listed as `<OperationId>Request` / `…Response`, so
 * every body has a named type in any language's generator.
 */
class Components {
  readonly schemas: Record<string, Schema> = {};
  readonly #owners = new Map<string, object>();

  /** `schema` with every named schema inside it (itself included) replaced by a `$ref`. */
  refer(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((s) => this.refer(s));
    if (schema === null || typeof schema !== 'object') return schema;
    const name = schemaName(schema);
    return name === undefined ? this.#inner(schema as Schema) : this.define(name, schema as Schema);
  }

  /** Lists `schema` as `name` (once) and returns the `$ref` to it. */
  define(name: string, schema: Schema): Schema {
    const owner = this.#owners.get(name);
    if (owner !== undefined && owner !== schema)
      throw new Error(`two different schemas are both named ${name} in the OpenAPI document`);
    if (owner === undefined) {
      this.#owners.set(name, schema);
      this.schemas[name] = this.#inner(schema);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** A body: its own name, else the operation's. */
  body(schema: Schema, fallback: string): Schema {
    return this.define(schemaName(schema) ?? fallback, schema);
  }

  #inner(schema: Schema): Schema {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, this.refer(v)]));
  }

  sorted(): Record<string, Schema> {
    return Object.fromEntries(
      Object.keys(this.schemas)
        .sort()
        .map((k) => [k, this.schemas[k]]),
    );
  }
}

export function buildOpenApi(routes: readonly RouteOptions[], version: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  const components = new Components();
  for (const r of routes) {
    const s = r.schema as Schema;
    const url = r.url.replace(/:(\w+)/g, '{$1}');
    const auth = (r.config as { auth?: string } | undefined)?.auth ?? 'public';
    const responses: Record<string, Schema> = {};
    const codes = Object.entries((s.response ?? {}) as Record<string, Schema>);
    const successes = codes.filter(([code]) => !/^[45]xx$/i.test(code)).length;
    for (const [code, schema] of codes) {
      const key = code.toUpperCase();
      const { description, ...body } = schema;
      const text = body.type === 'string';
      // A named schema keeps its description in its component; an operation's own body lends it to the response.
      const json = () =>
        schemaName(schema) !== undefined
          ? components.refer(schema)
          : components.body(body, `${pascal(s.operationId as string)}Response${successes > 1 ? code : ''}`);
      responses[key] = {
        description: (description as string | undefined) ?? STATUS_TEXT[key] ?? 'Response',
        ...(body.type === 'null'
          ? {}
          : { content: { [text ? 'text/plain' : 'application/json']: { schema: text ? body : json() } } }),
      };
    }
    const op: Schema = {
      operationId: s.operationId,
      summary: s.summary,
      ...(s.description ? { description: s.description } : {}),
      tags: s.tags,
      security: auth === 'public' ? [] : [{ bearer: [] }],
      ...(auth === 'admin'
        ? { 'x-hookline-auth': 'admin token only' }
        : auth === 'tenant'
          ? { 'x-hookline-auth': 'admin token or an API key of the tenant in the path' }
          : {}),
    };
    const params = [
      ...parameters('path', s.params as Schema | undefined),
      ...parameters('query', s.querystring as Schema | undefined),
    ];
    if (params.length) op.parameters = params;
    if (s.body)
      op.requestBody = {
        required: !(Array.isArray((s.body as Schema).type) && ((s.body as Schema).type as string[]).includes('null')),
        content: {
          'application/json': {
            schema: components.body(s.body as Schema, `${pascal(s.operationId as string)}Request`),
          },
        },
      };
    op.responses = responses;
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) (paths[url] ??= {})[m.toLowerCase()] = op;
  }
  const sorted = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((k) => [k, paths[k]]),
  );
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
      schemas: components.sorted(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The admin token, or a tenant API key (hk_test_… for a test tenant, hk_live_… for a live one) that reaches only its own tenant.',
        },
      },
    },
    paths: sorted,
  };
}
