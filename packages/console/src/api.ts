// The console's way to the API: @hookline/client (typed from the OpenAPI document) over the session cookie, with the
// session's CSRF token on every state-changing request (docs/console.md). Only the console's own session routes
// (/console/session, not part of /v1) are plain fetch calls.
import { createHooklineClient, HooklineApiError, type HooklineClient, unwrap } from '@hookline/client';

export { HooklineApiError, unwrap };

export interface ConsoleSession {
  readonly kind: 'admin' | 'tenant';
  readonly tenant_id: string | null;
  readonly csrf_token: string;
  readonly expires_at: string;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
let csrf: string | null = null;

/** The typed client: same origin, the session cookie (credentials: same-origin), the CSRF header when not a GET. */
export const api: HooklineClient = createHooklineClient({
  baseUrl: globalThis.location?.origin ?? 'http://127.0.0.1',
  fetch: (request, init) => {
    const headed = new Request(request, { credentials: 'same-origin' });
    if (!SAFE.has(headed.method) && csrf) headed.headers.set('x-csrf-token', csrf);
    return fetch(headed, init);
  },
});

function remember(s: ConsoleSession | null): ConsoleSession | null {
  csrf = s?.csrf_token ?? null;
  return s;
}

async function sessionCall(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<ConsoleSession | null> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'DELETE' && csrf) headers['x-csrf-token'] = csrf;
  const res = await fetch('/console/session', {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new HooklineApiError(res.status, json);
  return json as ConsoleSession;
}

export const signIn = async (token: string) => remember(await sessionCall('POST', { token }))!;
export const currentSession = async () => remember(await sessionCall('GET'));
export async function signOut(): Promise<void> {
  await sessionCall('DELETE').catch(() => null);
  remember(null);
}

/** A plain message for an error from the API or the network. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const isStatus = (err: unknown, status: number) => err instanceof HooklineApiError && err.status === status;
