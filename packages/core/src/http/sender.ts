// The delivery HTTP client: one keep-alive undici Pool per endpoint and origin, a total deadline, capped excerpts, SSRF checks.
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import type { ErrorClass } from '../domain.ts';
import { type EgressOptions, EgressRoutes } from '../egress-routes.ts';
import { classifyTransportError, describeError, outcomeForStatus } from './classify-send.ts';
import { createGuardedLookup, type LookupAll } from './guarded-lookup.ts';
import { OAuth2Tokens, sendWithBearer } from './oauth2-token.ts';
import { forwardForm } from './proxy-forward.ts';
import { readExcerpt } from './read-excerpt.ts';
import { retryAfterHeaderMs } from './retry-after-header.ts';
import { type PoolEntry, SendPools } from './send-pools.ts';
import { SendTargets } from './send-target.ts';
import type { SendRequest, SendResult } from './send-types.ts';

export const DEFAULT_USER_AGENT = 'Hookline-Webhooks/0.1 (+https://hookline.dev)';

export interface SenderOptions {
  /** Plain http targets (development flag). Default false. */
  readonly allowHttp?: boolean;
  /** Loopback/private targets (tests, development). Default false. */
  readonly allowPrivateTargets?: boolean;
  /** Socket cap of a pool whose request names no `maxConcurrency`. Default 20 (the CRM's per-URL limit). */
  readonly connectionsPerOrigin?: number;
  /** A pool unused this long is closed and forgotten. Default 60 s. */
  readonly idlePoolMs?: number;
  /** Most pools kept open; past it the least recently used idle ones are closed. Default 10,000. */
  readonly maxPools?: number;
  /** Idle keep-alive socket lifetime. Default 4 s, below common server defaults (5 s) to avoid reusing a closing socket. */
  readonly keepAliveTimeoutMs?: number;
  /** TCP+TLS connect ceiling; each send's own deadline usually ends it sooner. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Response body bytes kept as the excerpt. Default 4096. */
  readonly maxExcerptBytes?: number;
  readonly userAgent?: string;
  /** DNS resolution, injectable for tests; results are filtered by the SSRF guard. */
  readonly lookup?: LookupAll;
  readonly clock?: Clock;
  /** Extra trust roots (tests, private CAs). Certificates are always verified. */
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Forward proxies and the targets that go direct (docs/rules.md#egress-proxy); none by default. */
  readonly egress?: EgressOptions;
}

export type { ClientCertificate, SendRequest, SendResult } from './send-types.ts';

export interface Sender {
  send(request: SendRequest): Promise<SendResult>;
  /** Close pools unused for `idleMs` (default: the idlePoolMs option); runs on a timer too. */
  evictIdle(idleMs?: number): number;
  /** Open pools (one per endpoint and origin, one per origin for requests naming no endpoint). */
  poolCount(): number;
  /** Close the endpoint's pools (deleted endpoint); sends in flight on them finish first. */
  closeEndpoint(endpointId: string): void;
  /** Close every pool; in-flight sends finish (each is bounded by its deadline). */
  close(): Promise<void>;
}

/** A token endpoint's answer is read up to this much (a JWT access token can pass the 4 KB excerpt). */
const TOKEN_RESPONSE_BYTES = 64 * 1024;

class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
}
const DEADLINE = new DeadlineExceeded('deadline exceeded');

/**
 * The total deadline of one send, as the abort signal undici takes. An EventEmitter is an accepted signal and costs
 * a fraction of an AbortController + AbortSignal pair, which showed up in the dispatcher's profile at ~3 %.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  fire(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = DEADLINE;
    this.emit('abort');
  }
}
function abortAtDeadline(deadline: Deadline): void {
  deadline.fire();
}

export function createSender(options: SenderOptions = {}): Sender {
  const allowHttp = options.allowHttp === true;
  const allowPrivateTargets = options.allowPrivateTargets === true;
  const defaultConnections = options.connectionsPerOrigin ?? 20;
  const idlePoolMs = options.idlePoolMs ?? 60_000;
  const maxPools = options.maxPools ?? 10_000;
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 4_000;
  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const cap = options.maxExcerptBytes ?? 4096;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const clock = options.clock ?? systemClock;
  const lookup = createGuardedLookup({ lookup: options.lookup, allowPrivateTargets });
  const ca = options.ca as string | Buffer | Array<string | Buffer> | undefined;
  const egress = new EgressRoutes(options.egress);
  const direct = (address: string) => egress.noProxy.matchesAddress(address);
  // Keep the socket's read buffer near the excerpt size so a huge body is not pulled in before we hang up.
  const highWaterMark = Math.max(cap, 16 * 1024);

  const pools = new SendPools({
    defaultConnections,
    maxPools,
    keepAliveTimeout,
    connectTimeout,
    lookup,
    ca,
    direct,
  });
  const targets = new SendTargets({ allowHttp, allowPrivateTargets });
  const evictIdle = (idleMs = idlePoolMs) => pools.evictIdle(idleMs);
  let closed = false;

  const sweeper = setInterval(evictIdle, Math.max(1_000, idlePoolMs / 2));
  sweeper.unref();

  function buildHeaders(given: Readonly<Record<string, string>>, authorization: string | null): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': userAgent };
    for (const name in given) {
      const lower = name.toLowerCase();
      // Same header under another case would go out twice.
      if (lower === 'content-type' || lower === 'user-agent' || lower === 'authorization') {
        delete headers[lower];
        if (lower === 'authorization') authorization = null;
      }
      headers[name] = given[name];
    }
    if (authorization !== null) headers.authorization = authorization;
    return headers;
  }

  const tokens = new OAuth2Tokens({ clock });

  async function send(request: SendRequest): Promise<SendResult> {
    if (closed) throw new Error('sender is closed');
    const { timeoutMs } = request;
    if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
      throw new TypeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
    if (request.oauth2 === undefined) return exchange(request, cap);
    return sendWithBearer(request, request.oauth2, {
      tokens,
      clock,
      exchange: (r) => exchange(r, cap),
      fetch: (r) => exchange(r, TOKEN_RESPONSE_BYTES),
    });
  }

  /** One HTTP exchange of `request` (no token logic): the route, the pool, the deadline, the classification. */
  async function exchange(request: SendRequest, excerptBytes: number): Promise<SendResult> {
    const { timeoutMs } = request;
    const startedAt = clock.now();
    const t0 = performance.now();
    const target = targets.of(request.url);
    if (!target.ok) {
      // Refused before any connection. A delivery failure, not a client error: the URL (or DNS) can be fixed
      // and retries should then get through.
      return failure('refused_address', target.message, startedAt, t0);
    }

    const proxy = egress.any ? egress.choose(target.hostname, request.proxy) : null;
    if (proxy === undefined)
      return failure(
        'proxy_refused',
        `the endpoint names proxy "${request.proxy}", which is not configured`,
        startedAt,
        t0,
      );
    let path = target.path;
    let headers = buildHeaders(request.headers, target.authorization);
    let entry: PoolEntry;
    if (proxy !== null && !target.https) {
      // Plain http through the proxy: resolved and checked here, then asked for by address (proxy-forward.ts).
      const form = await forwardForm(lookup, target, proxy, direct).catch((err: unknown) => err as Error);
      if (form instanceof Error) return failure(classifyTransportError(form), describeError(form), startedAt, t0);
      if (form === null)
        entry = pools.poolFor(
          target.origin,
          request.endpointId,
          request.maxConcurrency,
          null,
          true,
          request.clientCertificate,
        );
      else {
        entry = pools.poolFor(form.proxyOrigin, request.endpointId, request.maxConcurrency, proxy, false);
        path = form.path;
        headers = { ...headers, ...form.headers };
      }
    } else
      entry = pools.poolFor(
        target.origin,
        request.endpointId,
        request.maxConcurrency,
        proxy,
        true,
        request.clientCertificate,
      );
    entry.inflight++;
    entry.lastUsed = t0;
    const deadline = new Deadline();
    const timer = setTimeout(abortAtDeadline, timeoutMs, deadline);
    let status: number | null = null;
    let responseHeaders: Record<string, string> | null = null;
    let retryAfterMs: number | undefined;
    try {
      const response = await entry.pool.request({
        path,
        method: 'POST',
        headers,
        body: request.body,
        signal: deadline,
        // Belt and braces under the total deadline, which is what actually ends a slow exchange.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        highWaterMark,
      });
      status = response.statusCode;
      responseHeaders = flattenHeaders(response.headers);
      if (status === 429 || status === 503)
        retryAfterMs = retryAfterHeaderMs(response.headers['retry-after'], clock.now());
      const excerpt = await readExcerpt(response.body, excerptBytes);
      // Only the proxy asks for proxy credentials; a receiver has no business answering 407.
      if (status === 407 && proxy !== null && !target.https) {
        const result = failure(
          'proxy_auth_failed',
          `proxy ${proxy.name} (${proxy.display}) answered 407`,
          startedAt,
          t0,
        );
        result.status = status;
        result.responseHeaders = responseHeaders;
        return result;
      }
      const outcome = outcomeForStatus(status);
      const result: SendResult = {
        outcome,
        status,
        responseHeaders,
        bodyExcerpt: excerpt.toString('utf8'),
        errorClass: outcome === 'success' ? null : 'status',
        errorMessage: outcome === 'success' ? null : `HTTP ${status}`,
        startedAt,
        durationMs: Math.round(performance.now() - t0),
      };
      if (retryAfterMs !== undefined) result.retryAfterMs = retryAfterMs;
      return result;
    } catch (err) {
      // Whatever error surfaced after the deadline fired (abort, reset, body destroyed) is the deadline's doing.
      const late = deadline.aborted;
      const errorClass = late ? 'timeout' : classifyTransportError(err);
      const message = late ? `no full response within ${timeoutMs} ms` : describeError(err);
      const result = failure(errorClass, message, startedAt, t0);
      // Headers that did arrive help whoever reads the attempt log; the outcome still says it failed.
      result.status = status;
      result.responseHeaders = responseHeaders;
      return result;
    } finally {
      clearTimeout(timer);
      entry.inflight--;
      entry.lastUsed = performance.now();
    }
  }

  return {
    send,
    evictIdle,
    poolCount: () => pools.size,
    closeEndpoint: (endpointId) => pools.closeEndpoint(endpointId),
    async close() {
      closed = true;
      clearInterval(sweeper);
      await pools.closeAll();
    },
  };
}

function failure(errorClass: ErrorClass, message: string, startedAt: number, t0: number): SendResult {
  return {
    outcome: 'delivery_failure',
    status: null,
    responseHeaders: null,
    bodyExcerpt: null,
    errorClass,
    errorMessage: message,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
  };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}
