// The typed Hookline API client: openapi-fetch over the types generated from packages/server/openapi.json.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

// Every named type of the API (`Tenant`, `Endpoint`, `Delivery`, `CreateEndpointRequest`, …) and `paths`/`operations`.
export type * from './schema.ts';

/** The API's error body (docs/errors.md); named here so it does not shadow the global `Error`. */
export type ErrorBody = components['schemas']['Error'];
export type HooklineClient = Client<paths>;

export interface HooklineClientOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The admin token, or a tenant API key (`hk_live_…`); sent as `Authorization: Bearer …`. */
  token?: string;
  /** Bound on one whole exchange, body included; default 30 s. A request past it rejects with a `TimeoutError`. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A client whose paths, parameters, bodies and answers are typed from the OpenAPI document.
 *
 * @example
 * const hookline = createHooklineClient({ baseUrl: 'http://127.0.0.1:8080', token: process.env.HOOKLINE_TOKEN });
 * const tenant = unwrap(await hookline.POST('/v1/tenants', { body: { name: 'Acme' } }));
 */
export function createHooklineClient(options: HooklineClientOptions): HooklineClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  const base = options.fetch ?? globalThis.fetch;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      ...options.headers,
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
    },
    // The caller's own signal still cancels; the timeout bounds a server that accepts and never answers.
    fetch: (request) => base(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) }),
  });
}

/** A non-2xx answer: the catalog code, the HTTP status, the request id to quote, and per-field details if any. */
export class HooklineApiError extends Error {
  override readonly name = 'HooklineApiError';
  readonly status: number;
  /** From docs/errors.md; `http_<status>` when the body was not a Hookline error (a proxy's page, say). */
  readonly code: string;
  readonly requestId: string | null;
  readonly details: ErrorBody['error']['details'];

  constructor(status: number, body: unknown) {
    const e = isErrorBody(body) ? body.error : null;
    super(e ? e.message : `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`);
    this.status = status;
    this.code = e ? e.code : `http_${status}`;
    this.requestId = e ? e.request_id : null;
    this.details = e?.details;
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string';
}

/** The data of a 2xx answer, or a thrown HooklineApiError. */
export function unwrap<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (!result.response.ok) throw new HooklineApiError(result.response.status, result.error);
  return result.data as D;
}
