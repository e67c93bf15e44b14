// The Fastify application: JSON parsing, request ids, auth, one error handler, every route, the OpenAPI document.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type Actor, type ConsoleGrant, fail } from '@hookline/core';
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import { cookiePrincipal } from './console/console-auth.ts';
import { consoleRoutes } from './console/console-routes.ts';
import { actorOf } from './http/actor.ts';
import { authenticate, authorize, type Principal } from './http/auth.ts';
import { errorBody, MAX_PARAM_LENGTH, toHooklineError } from './http/error-reply.ts';
import { parseJsonBody } from './http/json-body.ts';
import { compileValidator } from './http/validation.ts';
import { buildOpenApi, collectRoutes } from './openapi/openapi-document.ts';
import { apiKeyRoutes } from './routes/api-keys/api-key-routes.ts';
import { auditRoutes } from './routes/audit/audit-routes.ts';
import { breakerRoutes } from './routes/breaker/breaker-routes.ts';
import { deliveryRoutes } from './routes/deliveries/delivery-routes.ts';
import { endpointCrudRoutes } from './routes/endpoints/crud.ts';
import { endpointDoctorRoutes } from './routes/endpoints/doctor.ts';
import { endpointSecretRoutes } from './routes/endpoints/secret.ts';
import { endpointTestRoutes } from './routes/endpoints/test-delivery.ts';
import { eventTypeRoutes } from './routes/event-types.ts';
import { eventRoutes } from './routes/events/event-routes.ts';
import { eventSearchRoutes } from './routes/events/event-search-routes.ts';
import { noticeRoutes } from './routes/notices/notice-routes.ts';
import { operationRoutes } from './routes/operations.ts';
import { policyRoutes } from './routes/policies.ts';
import { replayRoutes } from './routes/replays/replay-routes.ts';
import { statsRoutes } from './routes/stats.ts';
import { svixRoutes } from './routes/svix/svix-routes.ts';
import { tenantRoutes } from './routes/tenants/tenant-routes.ts';
import { whoamiRoutes } from './routes/whoami/whoami-routes.ts';
import type { Runtime } from './runtime.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Who the audit log names for this request's writes (http/actor.ts); set with the principal. */
    actor: Actor | undefined;
    /** The console session's grant when its cookie authenticated the request. */
    consoleGrant: ConsoleGrant | null;
  }
}

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Request ids need to be unique, not secret: a random prefix per process and a counter (a random draw per request
// was 3 % of the ingest profile).
const REQUEST_ID_PREFIX = `req_${randomBytes(6).toString('base64url')}_`;
let requestSeq = 0;
function nextRequestId(): string {
  return REQUEST_ID_PREFIX + (++requestSeq).toString(36);
}

/** Builds the app for `runtime`; the worker role gets only the operational routes. Not listening yet. */
export async function buildApp(runtime: Runtime): Promise<FastifyInstance> {
  const { config, logger } = runtime;
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 10_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A caller's own id (a proxy's, a client's) is kept when it is sane, so logs line up across systems.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && INCOMING_REQUEST_ID.test(given) ? given : nextRequestId();
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Bad percent-encoding and over-long path segments, refused before routing: answered like any other error.
    frameworkErrors: (err, req, reply) => {
      const e = toHooklineError(err, req, logger);
      (reply as FastifyReply)
        .header('x-request-id', req.id)
        .code(e.status)
        .type('application/json')
        .send(errorBody(e, req.id));
    },
    // Requests Node's HTTP parser refuses (header overflow, CR/LF in a header, a request that never completes).
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const e =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? fail('headers_too_large', { max: maxHeaderSize })
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? fail('request_timeout', { ms: config.requestTimeoutMs })
            : fail('invalid_request', {
                detail: 'the request is not valid HTTP/1.1 (a header holds CR, LF or another forbidden character?)',
              });
      const id = nextRequestId();
      const body = JSON.stringify(errorBody(e, id));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
  });
  // Bodies validate without coercion (`{"name":123}` is refused, not stored as "123"); path and query values coerce.
  app.setValidatorCompiler(compileValidator);

  const routes: RouteOptions[] = [];
  app.addHook('onRoute', collectRoutes(routes));
  let openapi: Record<string, unknown> | null = null;
  const document = () => (openapi ??= buildOpenApi(routes, VERSION));

  // JSON only: anything else is 415; an empty body is "no body"; bad JSON is 400 invalid_json; nesting and lone
  // surrogates are bounded (json-body.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    let value: unknown;
    try {
      value = parseJsonBody(body as Buffer);
    } catch (err) {
      return done(err as Error, undefined);
    }
    done(null, value);
  });

  app.decorateRequest('principal', null);
  app.decorateRequest('actor', undefined);
  app.decorateRequest('consoleGrant', null);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // The store failed for good: nothing is answered as if it worked, the probes included (see Runtime.fatal).
    if (runtime.fatal) throw fail('storage_unavailable');
    const rule = req.routeOptions.config?.auth ?? 'public';
    if (rule === 'public') return;
    // Without an Authorization header, the console's session cookie (docs/console.md#sessions) may stand in for it.
    const principal =
      req.headers.authorization === undefined && req.headers.cookie !== undefined
        ? await cookiePrincipal(runtime, req)
        : await authenticate(runtime.authLookups, runtime.adminTokenHash, req.headers.authorization);
    // Nothing sent at all: say how to send a token; a header of another form: say which form; a token that was
    // sent and refused stays `unauthorized`.
    if (!principal) {
      const header = req.headers.authorization;
      if (header === undefined && req.headers.cookie === undefined) throw fail('credentials_missing');
      if (header !== undefined && !/^Bearer\s+\S+\s*$/i.test(header)) throw fail('authorization_malformed');
      throw fail('unauthorized');
    }
    req.principal = principal;
    req.actor = actorOf(req, principal, req.consoleGrant);
    await authorize(runtime.authLookups, principal, rule, req);
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    runtime.metrics.httpRequests.inc({ method: req.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` });
    logger.log('debug', 'request', {
      request_id: req.id,
      method: req.method,
      route,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime),
    });
  });

  app.setErrorHandler(async (err, req, reply) => {
    const e = toHooklineError(err, req, logger);
    reply.header('x-request-id', req.id);
    if (e.code === 'unauthorized' || e.code === 'credentials_missing' || e.code === 'authorization_malformed')
      reply.header('www-authenticate', 'Bearer');
    if (e.retryAfterSec !== undefined) reply.header('retry-after', String(e.retryAfterSec));
    return reply.code(e.status).type('application/json').send(errorBody(e, req.id));
  });
  app.setNotFoundHandler(async (req, reply) => {
    reply.header('x-request-id', req.id);
    return reply
      .code(404)
      .type('application/json')
      .send(errorBody(fail('not_found'), req.id));
  });

  operationRoutes(app, runtime, document);
  if (config.role !== 'worker') {
    tenantRoutes(app, runtime);
    apiKeyRoutes(app, runtime);
    endpointCrudRoutes(app, runtime);
    endpointSecretRoutes(app, runtime);
    endpointTestRoutes(app, runtime);
    endpointDoctorRoutes(app, runtime);
    eventRoutes(app, runtime);
    eventSearchRoutes(app, runtime);
    deliveryRoutes(app, runtime);
    replayRoutes(app, runtime);
    eventTypeRoutes(app, runtime);
    noticeRoutes(app, runtime);
    auditRoutes(app, runtime);
    breakerRoutes(app, runtime);
    statsRoutes(app, runtime);
    policyRoutes(app, runtime);
    whoamiRoutes(app);
    consoleRoutes(app, runtime);
    await svixRoutes(app, runtime);
  }
  await app.ready();
  return app;
}
