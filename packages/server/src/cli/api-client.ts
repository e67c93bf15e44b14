// The HTTP client the client commands use: undici `request`, bearer auth, API errors turned into exit codes.
import { request } from 'undici';
import { CliError, EXIT, exitCodeForStatus, usageError } from './cli-error.ts';

export interface ApiClientOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  readonly token?: string;
  readonly tenant?: string;
  /** Per-request deadline. */
  readonly timeoutMs?: number;
}

export type Query = Record<string, string | number | boolean | undefined>;

/** Connection-level failures: the server is not there (exit 5), as opposed to the server saying no. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** A tenant API key (`hk_live_…`, `hk_test_…`), as opposed to the admin token: it names one tenant. */
const API_KEY_PATTERN = /^hk_(live|test)_/;

export class ApiClient {
  readonly baseUrl: URL;
  readonly #o: ApiClientOptions;
  /** The tenant a tenant API key belongs to, once asked. */
  #tenant: string | undefined;

  constructor(o: ApiClientOptions) {
    let base: URL;
    try {
      base = new URL(o.url);
    } catch {
      throw usageError(`--api-url '${o.url}' is not an absolute URL (e.g. http://127.0.0.1:8080; env HOOKLINE_URL)`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw usageError(`--api-url must be http:// or https://, got '${o.url}' (env HOOKLINE_URL)`);
    this.baseUrl = base;
    this.#o = o;
  }

  /**
   * The tenant every tenant-scoped command works on: --tenant or HOOKLINE_TENANT, else the tenant of the tenant API
   * key in use (asked of GET /v1/whoami once); a usage error when none of them names one.
   */
  async tenant(): Promise<string> {
    if (this.#tenant !== undefined) return this.#tenant;
    if (this.#o.tenant) return this.#o.tenant;
    if (this.#o.token !== undefined && API_KEY_PATTERN.test(this.#o.token)) {
      const me = await this.get<{ kind: string; tenant_id?: string | null }>('/v1/whoami');
      if (typeof me.tenant_id === 'string') return (this.#tenant = me.tenant_id);
    }
    throw usageError('no tenant: pass --tenant <id> or set HOOKLINE_TENANT (a tenant API key as --token implies it)');
  }

  /** Whether the token is a tenant API key (it reads its own tenant only), not the admin token. */
  get tenantKey(): boolean {
    return this.#o.token !== undefined && API_KEY_PATTERN.test(this.#o.token);
  }

  /** The tenant named by --tenant or HOOKLINE_TENANT, if any (no lookup). */
  get namedTenant(): string | undefined {
    return this.#o.tenant || undefined;
  }

  /** `/v1/tenants/<tenant><suffix>` with the tenant id escaped. */
  async tenantPath(suffix = ''): Promise<string> {
    return `/v1/tenants/${encodeURIComponent(await this.tenant())}${suffix}`;
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.call<T>('GET', path, undefined, query);
  }

  post<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body ?? {});
  }

  patch<T = unknown>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PATCH', path, body);
  }

  delete<T = unknown>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }

  /**
   * GET of an NDJSON export: the body's chunks as the server sends them (read on demand, so the server sends no faster
   * than the caller takes them); an error answer throws as call() does.
   */
  async stream(path: string, query?: Query): Promise<AsyncIterable<Buffer>> {
    const { res } = await this.#request('GET', path, undefined, query, 'application/x-ndjson');
    if (res.statusCode >= 400) {
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      throw apiError(res.statusCode, parsed, text, this.#o.token !== undefined);
    }
    return res.body;
  }

  async #request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    query: Query | undefined,
    accept: string,
  ): Promise<{ res: Awaited<ReturnType<typeof request>>; url: URL }> {
    const url = new URL(this.baseUrl.pathname.replace(/\/$/, '') + path, this.baseUrl);
    for (const [k, v] of Object.entries(query ?? {}))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept };
    if (this.#o.token) headers.authorization = `Bearer ${this.#o.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timeout = this.#o.timeoutMs ?? 30_000;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      const code = errorCode(err);
      if (code !== undefined && UNREACHABLE_CODES.has(code)) {
        throw new CliError(
          EXIT.unreachable,
          `cannot reach the Hookline API at ${this.baseUrl.origin} (${code}); is 'hookline serve' running? (--api-url, HOOKLINE_URL)`,
        );
      }
      throw new CliError(EXIT.failure, `${method} ${url.pathname} failed: ${(err as Error).message}`);
    }
    return { res, url };
  }

  async call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, query?: Query): Promise<T> {
    const { res, url } = await this.#request(method, path, body, query, 'application/json');
    const text = await res.body.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (res.statusCode >= 400) throw apiError(res.statusCode, parsed, text, this.#o.token !== undefined);
    if (text !== '' && parsed === undefined)
      throw new CliError(
        EXIT.failure,
        `${method} ${url.pathname}: the server answered ${res.statusCode} with a body that is not JSON`,
      );
    return parsed as T;
  }
}

/**
 * `{"error":{"code","message","request_id"}}` → `message (code, HTTP 409)` with the exit code of the status; a 401
 * says which of the CLI's own settings carries the token, given or not.
 */
function apiError(status: number, parsed: unknown, text: string, tokenGiven: boolean): CliError {
  const e = (parsed as { error?: { code?: unknown; message?: unknown; request_id?: unknown } } | undefined)?.error;
  if (status === 401)
    return new CliError(
      EXIT.refused,
      tokenGiven
        ? `the API refused the token (${typeof e?.code === 'string' ? e.code : 'unauthorized'}, HTTP 401): check --token or HOOKLINE_TOKEN (the admin token or a tenant API key)`
        : `no token: pass --token <admin token or tenant API key> or set HOOKLINE_TOKEN (${typeof e?.code === 'string' ? e.code : 'unauthorized'}, HTTP 401)`,
    );
  if (e && typeof e.message === 'string') {
    const code = typeof e.code === 'string' ? `${e.code}, ` : '';
    return new CliError(exitCodeForStatus(status), `${e.message} (${code}HTTP ${status})`);
  }
  const excerpt = text.trim().split('\n')[0].slice(0, 120);
  return new CliError(exitCodeForStatus(status), `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`);
}

function errorCode(err: unknown): string | undefined {
  // undici wraps the socket error; happy-eyeballs failures arrive as an AggregateError of them.
  for (let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR') return e.code;
    if (Array.isArray(e.errors) && e.errors.length) e = e.errors[0] as typeof e;
    else e = e.cause as typeof e;
  }
  return undefined;
}
