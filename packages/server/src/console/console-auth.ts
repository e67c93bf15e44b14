// Console sessions on the API: a request without Authorization may carry the console's sealed session cookie;
// it then acts as the session's principal, and anything but GET/HEAD needs the session's CSRF token.
import { createHash } from 'node:crypto';
import { type ConsoleGrant, type ConsoleSession, ConsoleSessionOperations, fail } from '@hookline/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../http/auth.ts';
import type { Runtime } from '../runtime.ts';

export const SESSION_COOKIE = 'hl_console';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** A digest of the admin token hash: an admin session ends when the admin token changes. */
export function adminTag(rt: Runtime): string {
  return createHash('sha256').update(rt.adminTokenHash).update('console').digest('base64url').slice(0, 22);
}

export function sessionOf(rt: Runtime, req: FastifyRequest): ConsoleSession | null {
  const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
  return cookie ? rt.engine.console.readSession(decodeURIComponent(cookie)) : null;
}

/** The principal a session stands for now, or null when its key was revoked, its tenant deleted or the admin token changed. */
export async function sessionPrincipal(rt: Runtime, session: ConsoleSession): Promise<Principal | null> {
  const g = session.grant;
  if (g.kind === 'admin') return session.adminTag === adminTag(rt) ? { kind: 'admin' } : null;
  const environment = await rt.authLookups.tenantEnvironment(g.tenantId);
  if (environment === null) return null;
  if (g.kind === 'portal') return { kind: 'tenant', tenantId: g.tenantId, keyId: 'portal_link', environment };
  const key = await rt.authLookups.apiKey(g.keyHash);
  if (!key || key.revokedAt !== null || key.tenantId !== g.tenantId) return null;
  return { kind: 'tenant', tenantId: g.tenantId, keyId: key.id, environment };
}

/** For the API's auth hook: the principal of the request's session cookie (null without one); 403 csrf_token_invalid on a state-changing request without the token. */
export async function cookiePrincipal(rt: Runtime, req: FastifyRequest): Promise<Principal | null> {
  const session = sessionOf(rt, req);
  if (!session) return null;
  const principal = await sessionPrincipal(rt, session);
  if (!principal) return null;
  req.consoleGrant = session.grant;
  if (!SAFE_METHODS.has(req.method)) {
    const presented = req.headers[CSRF_HEADER];
    if (!ConsoleSessionOperations.csrfMatches(session, typeof presented === 'string' ? presented : undefined))
      throw fail('csrf_token_invalid');
  }
  return principal;
}

/** Sets the session cookie: HttpOnly, Secure unless --allow-http, SameSite=Strict; a portal session (shown in the provider's iframe) is SameSite=None; Partitioned when Secure. */
export function setSessionCookie(
  rt: Runtime,
  reply: FastifyReply,
  grant: ConsoleGrant,
  cookie: string,
  expiresAt: number,
): void {
  const secure = !rt.config.allowHttp;
  const maxAge = Math.max(0, Math.floor((expiresAt - rt.clock.now()) / 1000));
  const sameSite =
    grant.kind === 'portal' && secure
      ? 'SameSite=None; Partitioned'
      : grant.kind === 'portal'
        ? 'SameSite=Lax'
        : 'SameSite=Strict';
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${encodeURIComponent(cookie)}; Path=/; Max-Age=${maxAge}; HttpOnly; ${secure ? 'Secure; ' : ''}${sameSite}`,
  );
}

export function clearSessionCookie(rt: Runtime, reply: FastifyReply): void {
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; ${rt.config.allowHttp ? '' : 'Secure; '}SameSite=Strict`,
  );
}
