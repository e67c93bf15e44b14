// The `egress` settings (docs/deploy.md#egress-proxy): the forward proxy deliveries leave through, the hosts and
// networks that go direct, and named proxies endpoints may choose; checked once by the engine's own parser.
import { type EgressOptions, EgressRoutes } from '@hookline/core/config';
import { ConfigError } from './config-error.ts';
import { optStr, str } from './config-readers.ts';

export interface EgressConfig {
  /** `http://[user:pass@]host:port`; null: deliveries go direct. */
  proxy: string | null;
  /** Hosts (a name also covers its subdomains; `*` all), addresses and CIDRs that go direct. */
  noProxy: string[];
  /** Named proxies an endpoint may choose with `proxy: "<name>"`. */
  proxies: Record<string, string>;
}

export const DEFAULT_EGRESS: EgressConfig = { proxy: null, noProxy: [], proxies: {} };

const KEYS = ['proxy', 'noProxy', 'no_proxy', 'proxies'];

/** A comma-separated string (HOOKLINE_EGRESS_NO_PROXY) or a list. */
function list(v: unknown, key: string): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (Array.isArray(v)) return v.map((x, i) => str(x, `${key}[${i}]`).trim());
  throw new ConfigError(key, 'must be a list of hosts, addresses or CIDRs (or a comma-separated string)');
}

export function egressConfig(v: unknown): EgressConfig {
  if (v === null || v === undefined) return { ...DEFAULT_EGRESS };
  if (typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError('egress', 'must be an object {proxy, no_proxy, proxies}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!KEYS.includes(k)) throw new ConfigError(`egress.${k}`, 'unknown key; expected proxy, no_proxy, proxies');
  const proxy = optStr(o.proxy === '' ? null : o.proxy, 'egress.proxy');
  const noProxy = list(o.noProxy ?? o.no_proxy, 'egress.no_proxy');
  const proxies: Record<string, string> = {};
  if (o.proxies !== undefined && o.proxies !== null) {
    if (typeof o.proxies !== 'object' || Array.isArray(o.proxies))
      throw new ConfigError('egress.proxies', 'must be an object of name → http://[user:pass@]host:port');
    for (const [name, url] of Object.entries(o.proxies)) proxies[name] = str(url, `egress.proxies.${name}`);
  }
  const options: EgressOptions = { proxy, noProxy, proxies };
  try {
    new EgressRoutes(options);
  } catch (err) {
    const message = (err as Error).message;
    throw new ConfigError(keyOf(message), message);
  }
  return { proxy, noProxy, proxies };
}

/** The config key a parser message is about: no_proxy, a proxy's name, or the default proxy. */
function keyOf(message: string): string {
  if (message.startsWith('no_proxy')) return 'egress.no_proxy';
  if (message.startsWith('proxy name')) return 'egress.proxies';
  const name = /^proxy (\S+)/.exec(message)?.[1];
  return name === undefined || name === 'default' ? 'egress.proxy' : `egress.proxies.${name}`;
}
