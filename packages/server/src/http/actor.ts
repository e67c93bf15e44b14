// Who made a request and from where, as the audit log records it (docs/audit.md#actors): the admin token, an API key,
// a console session (opened with either) or a portal link's session, with the client's address, user agent and the
// request's id.
import type { Actor, ConsoleGrant } from '@hookline/core';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth.ts';

/** The request's context alone (no principal yet: a console sign-in, a portal link being used). */
export function requestOrigin(req: FastifyRequest): Omit<Actor, 'kind' | 'id'> {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null, requestId: req.id };
}

/** The actor of an authenticated request; `grant` is the console session's when the cookie stood in for a token. */
export function actorOf(req: FastifyRequest, principal: Principal, grant: ConsoleGrant | null): Actor {
  const from = requestOrigin(req);
  if (grant?.kind === 'portal') return { kind: 'portal_link', id: grant.linkId ?? null, ...from };
  const id = principal.kind === 'admin' ? 'admin' : principal.keyId;
  if (grant) return { kind: 'console_session', id, ...from };
  return { kind: principal.kind === 'admin' ? 'admin' : 'api_key', id, ...from };
}
