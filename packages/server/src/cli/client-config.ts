// The command line's client side, read once: flags → HOOKLINE_URL/TOKEN/TENANT/DEBUG → defaults, validated and
// frozen. With config.ts, the only modules that read process.env; the commands are handed the result.
// Core's modules by path, not its index: every client command loads this and should not load the engine.
import { deepFreeze } from '@hookline/core/config';
import { bool, optStr, str } from '../config-readers.ts';

/** How the client commands (tenants, send, tail, …) reach a server, and whether the CLI prints stacks. */
export interface ClientConfig {
  /** Base URL of the API; ApiClient checks that it is an absolute http(s) URL. */
  url: string;
  /** The admin token or a tenant API key; null sends no Authorization header. */
  token: string | null;
  /** The tenant tenant-scoped commands act on; null until one is given. */
  tenant: string | null;
  /** Print the stack of an unexpected failure (HOOKLINE_DEBUG). */
  debug: boolean;
}

export const DEFAULT_CLIENT_CONFIG: Readonly<ClientConfig> = deepFreeze({
  url: 'http://127.0.0.1:8080',
  token: null,
  tenant: null,
  debug: false,
});

/** The command line's own HOOKLINE_* variables (the client table of docs/deploy.md) and the key each sets. */
export const CLIENT_ENV: Readonly<Record<string, keyof ClientConfig>> = Object.freeze({
  HOOKLINE_URL: 'url',
  HOOKLINE_TOKEN: 'token',
  HOOKLINE_TENANT: 'tenant',
  HOOKLINE_DEBUG: 'debug',
});

export interface ResolveClientConfigOptions {
  /** The command's flags (--url, --token, --tenant); undefined ones fall through to the environment. */
  argv?: { url?: string; token?: string; tenant?: string };
  /** Defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Defaults → HOOKLINE_URL/TOKEN/TENANT/DEBUG → flags; an empty variable counts as unset. Throws ConfigError. */
export function resolveClientConfig(options: ResolveClientConfigOptions = {}): ClientConfig {
  const env = options.env ?? process.env;
  const merged: Record<string, unknown> = { ...DEFAULT_CLIENT_CONFIG };
  for (const [name, key] of Object.entries(CLIENT_ENV)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') merged[key] = raw;
  }
  for (const key of ['url', 'token', 'tenant'] as const) {
    const flag = options.argv?.[key];
    if (flag !== undefined) merged[key] = flag;
  }
  return deepFreeze({
    url: str(merged.url, 'url'),
    token: optStr(merged.token, 'token'),
    tenant: optStr(merged.tenant, 'tenant'),
    debug: bool(merged.debug, 'debug'),
  });
}
