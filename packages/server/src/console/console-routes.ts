// The web console (docs/console.md) at /console: its static files (read once at start, served with a strict CSP and
// the configured frame-ancestors), sign-in with the admin token or a tenant API key, portal links, sign-out.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { type ConsoleGrant, ConsoleSessionOperations, fail, HooklineError } from '@hookline/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { actorOf, requestOrigin } from '../http/actor.ts';
import { authenticate, hashApiKey } from '../http/auth.ts';
import { addRoute, paramsSchema } from '../http/route.ts';
import type { Runtime } from '../runtime.ts';
import {
  adminTag,
  CSRF_HEADER,
  clearSessionCookie,
  sessionOf,
  sessionPrincipal,
  setSessionCookie,
} from './console-auth.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
};

/** The console's built files (packages/console/dist, the Vite build), found through the @hookline/console package; null when it is not installed or not built. */
export function consoleDir(): string | null {
  try {
    const dir = join(dirname(createRequire(import.meta.url).resolve('@hookline/console/package.json')), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : null;
  } catch {
    return null;
  }
}

function loadFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (CONTENT_TYPES[extname(name)]) files.set(relative(dir, p).split(sep).join('/'), readFileSync(p));
    }
  };
  walk(dir);
  return files;
}

export function consoleRoutes(app: FastifyInstance, rt: Runtime): void {
  const dir = consoleDir();
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${rt.config.consoleFrameAncestors}`,
  ].join('; ');
  const secure = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-opener-policy', 'same-origin');

  // Portal links: part of the API (admin or the tenant's own key).
  addRoute<{ tenant: string }>(app, {
    method: 'POST',
    url: '/v1/tenants/:tenant/portal-links',
    operationId: 'createPortalLink',
    tag: 'console',
    auth: 'tenant',
    summary: 'Create a single-use console sign-in link for a tenant',
    description:
      'The URL signs its first visitor into the console restricted to this tenant (a session of at most 12 hours); it works once, within 15 minutes. Show it to your customer, e.g. in an iframe (docs/console.md#portal-links).',
    params: paramsSchema('tenant'),
    response: {
      201: {
        type: 'object',
        required: ['url', 'expires_at'],
        additionalProperties: false,
        properties: { url: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } },
      },
    },
    handler: async (req, reply) => {
      const link = await rt.engine.console.createPortalLink(req.params.tenant, req.actor);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({
          url: `${req.protocol}://${req.host}/console/portal/${link.token}`,
          expires_at: new Date(link.expiresAt).toISOString(),
        });
    },
  });

  const sessionView = (grant: ConsoleGrant, csrf: string, expiresAt: number) => ({
    kind: grant.kind === 'admin' ? 'admin' : 'tenant',
    tenant_id: grant.kind === 'admin' ? null : grant.tenantId,
    csrf_token: csrf,
    expires_at: new Date(expiresAt).toISOString(),
  });

  // Sign in: a JSON body (a cross-site form cannot send one) with the admin token or a tenant API key.
  app.post<{ Body: { token?: unknown } }>('/console/session', { config: { auth: 'public' } }, async (req, reply) => {
    const token = req.body?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 512)
      throw fail('invalid_request', { detail: 'body must be {"token": "<admin token or API key>"}' });
    const principal = await authenticate(rt.authLookups, rt.adminTokenHash, `Bearer ${token}`);
    if (!principal) throw fail('unauthorized');
    const grant: ConsoleGrant =
      principal.kind === 'admin'
        ? { kind: 'admin' }
        : { kind: 'key', tenantId: principal.tenantId, keyHash: hashApiKey(token) };
    const { cookie, session } = rt.engine.console.openSession(
      grant,
      grant.kind === 'admin' ? { adminTag: adminTag(rt) } : {},
    );
    // A sign-in changes no row: its entry stands alone (docs/audit.md), naming the token's kind and key.
    await rt.engine.audit.record(actorOf(req, principal, null), {
      action: 'console.sign_in',
      target: { type: 'console_session', id: null, tenantId: principal.kind === 'admin' ? null : principal.tenantId },
    });
    setSessionCookie(rt, reply, grant, cookie, session.expiresAt);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(sessionView(grant, session.csrf, session.expiresAt));
  });

  app.get('/console/session', { config: { auth: 'public' } }, async (req, reply) => {
    const session = sessionOf(rt, req);
    if (!session || !(await sessionPrincipal(rt, session))) throw fail('unauthorized');
    return reply.header('cache-control', 'no-store').send(sessionView(session.grant, session.csrf, session.expiresAt));
  });

  app.delete('/console/session', { config: { auth: 'public' } }, async (req, reply) => {
    const session = sessionOf(rt, req);
    if (session) {
      const presented = req.headers[CSRF_HEADER];
      if (!ConsoleSessionOperations.csrfMatches(session, typeof presented === 'string' ? presented : undefined))
        throw fail('csrf_token_invalid');
    }
    clearSessionCookie(rt, reply);
    return reply.code(204).send();
  });

  // A portal link: used once, it opens a session restricted to its tenant and goes to the console.
  app.get<{ Params: { token: string } }>(
    '/console/portal/:token',
    { config: { auth: 'public' } },
    async (req, reply) => {
      secure(reply).header('cache-control', 'no-store');
      let tenantId: string;
      let linkId: string;
      try {
        ({ tenantId, linkId } = await rt.engine.console.consumePortalLink(req.params.token, requestOrigin(req)));
      } catch (err) {
        if (!(err instanceof HooklineError)) throw err;
        return reply.code(err.status).type('text/html; charset=utf-8').send(refusedPage(err.code, err.message));
      }
      const grant: ConsoleGrant = { kind: 'portal', tenantId, linkId };
      const { cookie, session } = rt.engine.console.openSession(grant);
      setSessionCookie(rt, reply, grant, cookie, session.expiresAt);
      return reply
        .code(303)
        .header('location', `/console/#/t/${encodeURIComponent(tenantId)}`)
        .send();
    },
  );

  if (!dir) {
    rt.logger.log('warn', 'the console is not installed (@hookline/console not found): /console answers 404', {});
    return;
  }
  const files = loadFiles(dir);
  const serve = (path: string, reply: FastifyReply) => {
    const body = files.get(path);
    if (!body) throw fail('not_found');
    // Vite names what it emits under assets/ by content hash: such a file never changes, index.html always may.
    const cache =
      path === 'index.html'
        ? 'no-cache'
        : path.startsWith('assets/')
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=300';
    return secure(reply).header('cache-control', cache).type(CONTENT_TYPES[extname(path)]).send(body);
  };
  // The address the banner prints, opened as is: a browser goes to the console, anything else is told where things are.
  app.get('/', { config: { auth: 'public' } }, async (req, reply) =>
    (req.headers.accept ?? '').includes('text/html')
      ? reply.code(302).header('location', '/console/').send()
      : reply.send({ name: 'hookline', console: '/console/', openapi: '/openapi.json', health: '/healthz' }),
  );
  app.get('/console', { config: { auth: 'public' } }, async (_req, reply) =>
    reply.code(308).header('location', '/console/').send(),
  );
  app.get('/console/', { config: { auth: 'public' } }, async (_req, reply) => serve('index.html', reply));
  // Browsers ask the site's root for its icon (a page without <link rel="icon">, a bookmark): the console's.
  app.get('/favicon.ico', { config: { auth: 'public' } }, async (_req, reply) => serve('favicon.ico', reply));
  app.get<{ Params: { '*': string } }>('/console/*', { config: { auth: 'public' } }, async (req, reply) =>
    serve(req.params['*'], reply),
  );
}

function refusedPage(code: string, message: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link refused · Hookline</title></head>` +
    `<body><main><h1>This link cannot sign you in</h1><p id="refusal">${esc(message)}</p><p><code>${esc(code)}</code></p></main></body></html>`
  );
}
