// What one send is asked (the request) and what it reports (the result): shared by the sender and its token step.
import type { ErrorClass } from '../domain.ts';
import type { EndpointProxyChoice } from '../egress-routes.ts';
import type { OutcomeClass } from '../policy/types.ts';
import type { OAuth2Client } from './oauth2-client.ts';

export interface SendRequest {
  readonly url: string;
  /** Signature and id headers; they override the defaults (content-type, user-agent) by case-insensitive name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Total deadline for connect + request + response headers + body excerpt. */
  readonly timeoutMs: number;
  /**
   * The endpoint the request is for: it gets a pool of its own, so a slow endpoint of one tenant never holds the
   * sockets another endpoint on the same host needs. Without it, requests share one pool per origin.
   */
  readonly endpointId?: string;
  /** The endpoint's concurrency cap: its pool's socket count (a new pool when it changes). */
  readonly maxConcurrency?: number;
  /** The endpoint's proxy: unset follows the egress configuration, `none` goes direct, else a named proxy. */
  readonly proxy?: EndpointProxyChoice;
  /** The endpoint's client certificate (mTLS), presented on every TLS connection; `id` changes with it (a new pool). */
  readonly clientCertificate?: ClientCertificate;
  /** OAuth2 client credentials: a bearer token fetched, cached and refreshed once on a 401 (oauth2-token.ts). */
  readonly oauth2?: OAuth2Client;
}

/** A PEM certificate (chain) and its private key, as TLS presents them. */
export interface ClientCertificate {
  readonly id: string;
  readonly cert: string;
  readonly key: string;
}

export interface SendResult {
  outcome: OutcomeClass;
  /** Set whenever response headers arrived, even if the body then timed out (outcome says what counts). */
  status: number | null;
  responseHeaders: Record<string, string> | null;
  bodyExcerpt: string | null;
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  /** From Retry-After on 429/503, ms after the attempt ended; the policy caps it. */
  retryAfterMs?: number;
  startedAt: number;
  durationMs: number;
}
