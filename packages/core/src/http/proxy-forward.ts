// A plain-http attempt through a forward proxy (absolute form): the target is resolved and checked here, and the
// proxy is asked for the checked address with the URL's Host header, so it never resolves the name itself.
import { isIP, type LookupFunction } from 'node:net';
import type { ProxyServer } from '../egress-routes.ts';
import { connectAuthority, resolveChecked } from './proxy-tunnel.ts';

export interface ForwardForm {
  /** The pool's origin: the proxy. */
  readonly proxyOrigin: string;
  /** `http://<checked address>:<port><path>`. */
  readonly path: string;
  /** Host (the URL's) and Proxy-Authorization when the proxy has credentials. */
  readonly headers: Record<string, string>;
}

interface ForwardTarget {
  readonly hostname: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
}

/**
 * The request line and headers for `target` through `proxy`, or null when the checked address is one no_proxy lists
 * (the attempt goes direct). Rejects with the guard's RefusedAddressError before the proxy is contacted.
 */
export async function forwardForm(
  lookup: LookupFunction,
  target: ForwardTarget,
  proxy: ProxyServer,
  direct: (address: string) => boolean,
): Promise<ForwardForm | null> {
  const address = await resolveChecked(lookup, target.hostname);
  if (direct(address)) return null;
  const headers: Record<string, string> = { host: target.host };
  if (proxy.authorization !== null) headers['proxy-authorization'] = proxy.authorization;
  const proxyHost = isIP(proxy.host) === 6 ? `[${proxy.host}]` : proxy.host;
  return {
    proxyOrigin: `http://${proxyHost}:${proxy.port}`,
    path: `http://${connectAuthority(address, target.port)}${target.path}`,
    headers,
  };
}
