// `idempotency-key` on a POST (docs/svix-compatibility.md#idempotency): the same key with the same request answers
// the first answer for 12 h, from the store (so across restarts and processes); a repeat arriving while the first
// still runs waits for it. Keys are scoped by caller: one tenant's key never answers another's request.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../../runtime.ts';

export interface SvixAnswer {
  status: number;
  body: unknown;
}

const MAX_KEY_LENGTH = 256;

/** Runs `handle` once per idempotency key and sends its answer (or the first one's, for a repeat). */
export async function answerOnce(
  rt: Runtime,
  req: FastifyRequest,
  reply: FastifyReply,
  handle: () => Promise<SvixAnswer>,
): Promise<FastifyReply> {
  const header = req.headers['idempotency-key'];
  const key = typeof header === 'string' && header.length > 0 && header.length <= MAX_KEY_LENGTH ? header : null;
  if (req.method !== 'POST' || key === null) {
    const a = await handle();
    return send(reply, a.status, a.body === undefined ? undefined : JSON.stringify(a.body));
  }
  const p = req.principal;
  const who = p === null ? 'anonymous' : p.kind === 'admin' ? 'admin' : `tenant:${p.tenantId}`;
  const scope = `svix:${who}`;
  const hash = createHash('sha256')
    .update(`${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`)
    .digest('base64url');
  const a = await rt.engine.idempotency.run(scope, key, hash, async () => {
    const r = await handle();
    return { status: r.status, body: r.body === undefined ? '' : JSON.stringify(r.body) };
  });
  if (a.repeated) reply.header('idempotent-replayed', 'true');
  return send(reply, a.status, a.body === '' ? undefined : a.body);
}

function send(reply: FastifyReply, status: number, text: string | undefined): FastifyReply {
  reply.code(status);
  if (text === undefined) return reply.send();
  return reply.type('application/json').send(text);
}
