// Which way an attempt leaves the machine (docs/rules.md#egress-proxy): the configured forward proxies, the hosts and
// networks that go direct, and an endpoint's own choice ("none" or a named proxy).
import { BlockList, isIP } from 'node:net';

/** The egress settings a sender is built with; every proxy is `http://[user:pass@]host:port`. */
export interface EgressOptions {
  /** The proxy every attempt goes through unless no_proxy or the endpoint says otherwise; null: direct. */
  readonly proxy?: string | null;
  /** Hosts (`example.com` also matches its subdomains; `*` matches all), IP addresses or CIDRs that go direct. */
  readonly noProxy?: readonly string[];
  /** Further proxies an endpoint may name (`proxy: "<name>"`). */
  readonly proxies?: Readonly<Record<string, string>>;
}

/** One forward proxy, parsed. */
export interface ProxyServer {
  /** `default` or the name under egress.proxies. */
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** `Basic …` from the URL's user:pass, sent as Proxy-Authorization; null without credentials. */
  readonly authorization: string | null;
  /** The URL without credentials, for pool keys and messages. */
  readonly display: string;
}

/** The endpoint's setting: unset follows the configuration, `none` goes direct, any other value names a proxy. */
export type EndpointProxyChoice = string | null | undefined;

export const NO_PROXY_CHOICE = 'none';

/** Parses `http://[user:pass@]host:port`; throws a TypeError naming what is wrong. */
export function parseProxyUrl(raw: string, name = 'default'): ProxyServer {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new TypeError(`proxy ${name} is not a URL: ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:')
    throw new TypeError(
      `proxy ${name} must be an http:// URL (the proxy itself is spoken to in plain HTTP), got ${u.protocol}`,
    );
  if (u.pathname !== '/' || u.search || u.hash)
    throw new TypeError(`proxy ${name} must be http://[user:pass@]host:port with no path`);
  const port = u.port === '' ? 80 : Number(u.port);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const authorization =
    u.username || u.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
      : null;
  return { name, host, port, authorization, display: `http://${u.host}` };
}

/** The no_proxy list: hosts and domain suffixes by name, addresses and networks by the address a name resolves to. */
export class NoProxyList {
  readonly #all: boolean;
  readonly #names: readonly string[];
  readonly #networks = new BlockList();
  readonly #hasNetworks: boolean;

  constructor(entries: readonly string[]) {
    const names: string[] = [];
    let all = false;
    let networks = false;
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry === '*') {
        all = true;
        continue;
      }
      const slash = entry.indexOf('/');
      const address = slash === -1 ? entry : entry.slice(0, slash);
      const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
      const family = isIP(bare);
      if (family !== 0) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        const bits = slash === -1 ? (family === 4 ? 32 : 128) : Number(entry.slice(slash + 1));
        if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128))
          throw new TypeError(`no_proxy entry ${JSON.stringify(raw)}: bad prefix length`);
        this.#networks.addSubnet(bare, bits, type);
        networks = true;
        continue;
      }
      if (slash !== -1 || !/^(\*\.|\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(entry))
        throw new TypeError(`no_proxy entry ${JSON.stringify(raw)} is not a host name, address or CIDR`);
      names.push(entry.replace(/^\*?\./, '').replace(/\.$/, ''));
    }
    this.#all = all;
    this.#names = names;
    this.#hasNetworks = networks;
  }

  /** The host name (or literal) goes direct: `*`, the name itself or a parent domain is listed. */
  matchesHost(hostname: string): boolean {
    if (this.#all) return true;
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    if (isIP(bare) !== 0) return this.matchesAddress(bare);
    return this.#names.some((n) => host === n || host.endsWith(`.${n}`));
  }

  /** The address the target resolved to lies in a listed network. */
  matchesAddress(address: string): boolean {
    if (!this.#hasNetworks) return false;
    const family = isIP(address);
    return family !== 0 && this.#networks.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** The parsed egress settings; `choose` picks the proxy of one attempt. */
export class EgressRoutes {
  readonly #default: ProxyServer | null;
  readonly #named = new Map<string, ProxyServer>();
  readonly noProxy: NoProxyList;

  constructor(options: EgressOptions = {}) {
    this.#default = options.proxy ? parseProxyUrl(options.proxy) : null;
    for (const [name, url] of Object.entries(options.proxies ?? {})) {
      if (name === NO_PROXY_CHOICE || name === 'default' || !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(name))
        throw new TypeError(
          `proxy name ${JSON.stringify(name)}: lowercase letters, digits, - and _, not "none" or "default"`,
        );
      this.#named.set(name, parseProxyUrl(url, name));
    }
    this.noProxy = new NoProxyList(options.noProxy ?? []);
  }

  /** Whether any proxy is configured at all (a sender without one never looks further). */
  get any(): boolean {
    return this.#default !== null || this.#named.size > 0;
  }

  /** The names an endpoint may choose. */
  names(): string[] {
    return [...this.#named.keys()];
  }

  /**
   * The proxy for a target host and the endpoint's choice: a named proxy is used as named (no_proxy is for the
   * default), `none` goes direct, unset takes the default unless no_proxy lists the host. An unknown name is
   * `undefined`, which the sender refuses (the endpoint names a proxy this process does not have).
   */
  choose(hostname: string, choice: EndpointProxyChoice): ProxyServer | null | undefined {
    if (choice === NO_PROXY_CHOICE) return null;
    if (choice !== null && choice !== undefined && choice !== 'default') return this.#named.get(choice);
    if (this.#default === null || this.noProxy.matchesHost(hostname)) return null;
    return this.#default;
  }
}
