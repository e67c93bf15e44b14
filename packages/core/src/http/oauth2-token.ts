// OAuth2 client credentials for an endpoint (docs/rules.md#oauth2): fetch a token from its token URL, keep it in memory
// until shortly before it expires, send it as `Authorization: Bearer …`, and fetch a new one once when the receiver
// answers 401. A token is not state that matters: after a restart it is fetched again.
import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.ts';
import type { OAuth2Client } from './oauth2-client.ts';
import type { SendRequest, SendResult } from './send-types.ts';

export const OAUTH_TOKEN_FAILED_CODE = 'ERR_HOOKLINE_OAUTH_TOKEN_FAILED';

/** The token endpoint failed (transport, non-2xx, no access_token): the attempt's error class `oauth_token_failed`. */
export class OAuthTokenError extends Error {
  readonly code = OAUTH_TOKEN_FAILED_CODE;
  constructor(message: string) {
    super(message);
    this.name = 'OAuthTokenError';
  }
}

/** A token is used until this long before its expiry (or a tenth of its life, when that is shorter). */
export const TOKEN_EXPIRY_MARGIN_MS = 60_000;
/** A token answer without expires_in is kept this long. */
export const TOKEN_DEFAULT_LIFETIME_MS = 5 * 60_000;
/** Cached tokens kept at most; past it the whole cache is dropped (tokens are refetched on demand). */
const MAX_TOKENS = 10_000;

interface Cached {
  readonly token: string;
  readonly refreshAt: number;
}

/** The form body of a client-credentials grant; the client authenticates with HTTP Basic (RFC 6749 §2.3.1). */
export function tokenRequest(client: OAuth2Client): { headers: Record<string, string>; body: Buffer } {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (client.scope) form.set('scope', client.scope);
  if (client.audience) form.set('audience', client.audience);
  const basic = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64');
  return {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    },
    body: Buffer.from(form.toString()),
  };
}

/** The access token and how long to keep it, from a token endpoint's answer; throws OAuthTokenError. */
export function readTokenAnswer(result: SendResult, tokenUrl: string): { token: string; lifetimeMs: number } {
  const where = new URL(tokenUrl).origin;
  if (result.outcome !== 'success') {
    const why = result.status !== null ? `HTTP ${result.status}` : `${result.errorClass}: ${result.errorMessage}`;
    throw new OAuthTokenError(`token endpoint ${where} failed: ${why}`);
  }
  let json: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
  try {
    json = JSON.parse(result.bodyExcerpt ?? '');
  } catch {
    throw new OAuthTokenError(`token endpoint ${where} answered HTTP ${result.status} without a JSON body`);
  }
  if (typeof json.access_token !== 'string' || json.access_token === '')
    throw new OAuthTokenError(`token endpoint ${where} answered without an access_token`);
  if (typeof json.token_type === 'string' && json.token_type.toLowerCase() !== 'bearer')
    throw new OAuthTokenError(`token endpoint ${where} answered token_type ${json.token_type}, not Bearer`);
  const seconds = Number(json.expires_in);
  const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : TOKEN_DEFAULT_LIFETIME_MS;
  return { token: json.access_token, lifetimeMs };
}

/** The tokens of this process, by client id; concurrent sends share one fetch. */
export class OAuth2Tokens {
  readonly #clock: Clock;
  readonly #cache = new Map<string, Cached>();
  readonly #pending = new Map<string, Promise<string>>();

  constructor(o: { clock: Clock }) {
    this.#clock = o.clock;
  }

  /** A cached token still good, else a fetched one (`fetch` sends the token request with a timeout). */
  get(client: OAuth2Client, fetch: (timeoutMs: number) => Promise<SendResult>, timeoutMs: number): Promise<string> {
    const cached = this.#cache.get(client.id);
    if (cached !== undefined && this.#clock.now() < cached.refreshAt) return Promise.resolve(cached.token);
    let pending = this.#pending.get(client.id);
    if (pending === undefined) {
      pending = (async () => {
        const { token, lifetimeMs } = readTokenAnswer(await fetch(timeoutMs), client.tokenUrl);
        const margin = Math.min(TOKEN_EXPIRY_MARGIN_MS, lifetimeMs / 10);
        if (this.#cache.size >= MAX_TOKENS) this.#cache.clear();
        this.#cache.set(client.id, { token, refreshAt: this.#clock.now() + lifetimeMs - margin });
        return token;
      })().finally(() => this.#pending.delete(client.id));
      this.#pending.set(client.id, pending);
    }
    return pending;
  }

  /** Forget the token (the receiver refused it); the next get fetches a new one unless `token` was already replaced. */
  forget(clientId: string, token: string): void {
    if (this.#cache.get(clientId)?.token === token) this.#cache.delete(clientId);
  }
}

export interface BearerParts {
  readonly tokens: OAuth2Tokens;
  readonly clock: Clock;
  /** The attempt's own exchange (the receiver). */
  readonly exchange: (request: SendRequest) => Promise<SendResult>;
  /** An exchange with the token endpoint (a larger answer is read). */
  readonly fetch: (request: SendRequest) => Promise<SendResult>;
}

function withBearer(headers: Readonly<Record<string, string>>, token: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== 'authorization') out[name] = headers[name];
  out.authorization = `Bearer ${token}`;
  return out;
}

/**
 * One attempt with a bearer token, within the attempt's one deadline: the token (cached or fetched through the same
 * route and SSRF guard as the attempt), the exchange, and on a 401 one fresh token and one more exchange.
 */
export async function sendWithBearer(request: SendRequest, client: OAuth2Client, p: BearerParts): Promise<SendResult> {
  const startedAt = p.clock.now();
  const t0 = performance.now();
  const left = () => Math.max(1, Math.round(request.timeoutMs - (performance.now() - t0)));
  const { headers, body } = tokenRequest(client);
  const fetch = (timeoutMs: number) =>
    p.fetch({
      url: client.tokenUrl,
      headers,
      body,
      timeoutMs,
      ...(request.proxy === undefined ? {} : { proxy: request.proxy }),
    });
  const finish = (result: SendResult): SendResult => ({
    ...result,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
  });
  let token: string;
  try {
    token = await p.tokens.get(client, fetch, left());
  } catch (err) {
    return finish(tokenFailure(err));
  }
  let result = await p.exchange({ ...request, headers: withBearer(request.headers, token), timeoutMs: left() });
  if (result.status !== 401) return finish(result);
  p.tokens.forget(client.id, token);
  try {
    token = await p.tokens.get(client, fetch, left());
  } catch (err) {
    return finish(tokenFailure(err));
  }
  result = await p.exchange({ ...request, headers: withBearer(request.headers, token), timeoutMs: left() });
  return finish(result);
}

function tokenFailure(err: unknown): SendResult {
  return {
    outcome: 'delivery_failure',
    status: null,
    responseHeaders: null,
    bodyExcerpt: null,
    errorClass: 'oauth_token_failed',
    errorMessage:
      err instanceof OAuthTokenError ? err.message : `token endpoint failed: ${(err as Error)?.message ?? err}`,
    startedAt: 0,
    durationMs: 0,
  };
}
