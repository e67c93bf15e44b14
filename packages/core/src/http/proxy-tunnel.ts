// Opens a delivery connection through a forward proxy: resolve and check the target here, then CONNECT to the checked
// address (never the name, so the proxy cannot resolve it anew), then TLS to the receiver (docs/rules.md#egress-proxy).
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import type { ProxyServer } from '../egress-routes.ts';

export const PROXY_UNREACHABLE_CODE = 'ERR_HOOKLINE_PROXY_UNREACHABLE';
export const PROXY_REFUSED_CODE = 'ERR_HOOKLINE_PROXY_REFUSED';
export const PROXY_AUTH_FAILED_CODE = 'ERR_HOOKLINE_PROXY_AUTH_FAILED';

/** The proxy could not be reached (refused, reset, unresolvable) or closed before it answered. */
export class ProxyUnreachableError extends Error {
  readonly code = PROXY_UNREACHABLE_CODE;
  constructor(proxy: ProxyServer, cause: unknown) {
    super(`proxy ${proxy.name} (${proxy.display}) unreachable: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'ProxyUnreachableError';
  }
}
/** The proxy answered the CONNECT with a refusal of its own (403, 405, …), not a gateway error about the target. */
export class ProxyRefusedError extends Error {
  readonly code = PROXY_REFUSED_CODE;
  constructor(proxy: ProxyServer, status: number | null, target: string) {
    super(
      `proxy ${proxy.name} (${proxy.display}) refused CONNECT ${target}${status === null ? ': no HTTP reply' : `: HTTP ${status}`}`,
    );
    this.name = 'ProxyRefusedError';
  }
}
/** The proxy asked for credentials (407): none configured, or the configured ones are wrong. */
export class ProxyAuthFailedError extends Error {
  readonly code = PROXY_AUTH_FAILED_CODE;
  constructor(proxy: ProxyServer, target: string) {
    super(
      `proxy ${proxy.name} (${proxy.display}) answered 407 to CONNECT ${target}: proxy credentials missing or wrong`,
    );
    this.name = 'ProxyAuthFailedError';
  }
}

/**
 * A CONNECT reply that is the proxy's report on the target, not on itself: it could not reach the receiver
 * (500 is tinyproxy's "Unable to connect", 502/503/504 squid's). Those are the receiver's connection failures.
 */
const GATEWAY_STATUSES = new Set([500, 502, 503, 504]);

export interface TunnelOptions {
  readonly proxy: ProxyServer;
  /** The connect-time SSRF guard (guarded-lookup.ts): fails before any socket when the target is not allowed. */
  readonly lookup: LookupFunction;
  /** Addresses no_proxy lists: after the check, connect to them directly. */
  readonly direct: (address: string) => boolean;
  readonly connectTimeoutMs: number;
  /** Trust roots, client certificate, ALPN: the TLS options of the receiver's connection. */
  readonly tls: ConnectionOptions;
}

/** IP literals skip DNS; the sender refused the non-public ones before any connect (address-guard.ts). */
export function resolveChecked(lookup: LookupFunction, hostname: string): Promise<string> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) !== 0) return Promise.resolve(bare);
  return new Promise((resolve, reject) =>
    lookup(bare, { all: false }, (err, address) => (err ? reject(err) : resolve(address as string))),
  );
}

/** The CONNECT request line's authority: the checked address, bracketed when IPv6. */
export function connectAuthority(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/** Sends CONNECT on `socket` and resolves once the proxy answered 2xx; any reply bytes past the header stay readable. */
export function openTunnel(socket: Socket, proxy: ProxyServer, authority: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (err: Error | null) => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
      if (err) reject(err);
      else resolve();
    };
    const onError = (err: Error) => done(new ProxyUnreachableError(proxy, err));
    const onEnd = () => done(new ProxyRefusedError(proxy, null, authority));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > 16 * 1024) done(new ProxyRefusedError(proxy, null, authority));
        return;
      }
      const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1]);
      socket.pause();
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      if (status >= 200 && status < 300) return done(null);
      if (status === 407) return done(new ProxyAuthFailedError(proxy, authority));
      if (GATEWAY_STATUSES.has(status))
        return done(
          Object.assign(new Error(`proxy ${proxy.name} could not reach ${authority}: HTTP ${status}`), {
            code: 'ECONNREFUSED',
          }),
        );
      done(new ProxyRefusedError(proxy, Number.isNaN(status) ? null : status, authority));
    };
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('end', onEnd);
    const head = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
    if (proxy.authorization !== null) head.push(`Proxy-Authorization: ${proxy.authorization}`);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}

/** A TCP socket to the proxy; a failure to reach it is a ProxyUnreachableError. */
export function dialProxy(proxy: ProxyServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: proxy.host, port: proxy.port });
    const onError = (err: Error) => reject(new ProxyUnreachableError(proxy, err));
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/** TLS over an open socket (a tunnel or a direct one), verified against the URL's host name. */
function startTls(socket: Socket, servername: string | undefined, tls: ConnectionOptions): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ ...tls, socket, ...(servername ? { servername } : {}) });
    secure.once('error', reject);
    secure.once('secureConnect', () => {
      secure.off('error', reject);
      resolve(secure);
    });
  });
}

/**
 * undici's `connect` for a pool whose sockets go through `proxy`: the target is resolved and checked first (a
 * refused target never reaches the proxy), then tunnelled by address; https targets get TLS inside the tunnel with
 * the URL's host as server name. An address no_proxy lists is dialled directly instead.
 */
export function tunnelConnector(o: TunnelOptions): buildConnector.connector {
  return (args, callback) => {
    const port = Number(args.port) || (args.protocol === 'https:' ? 443 : 80);
    const hostname = args.hostname.startsWith('[') ? args.hostname.slice(1, -1) : args.hostname;
    let socket: Socket | null = null;
    let settled = false;
    const finish = (err: Error | null, s: Socket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err !== null || s === null) {
        socket?.destroy();
        callback(err ?? new Error('no socket'), null);
      } else callback(null, s);
    };
    const timer = setTimeout(
      () =>
        finish(
          Object.assign(new Error(`connect through proxy ${o.proxy.name} timed out`), {
            code: 'UND_ERR_CONNECT_TIMEOUT',
          }),
          null,
        ),
      o.connectTimeoutMs,
    );
    (async () => {
      const address = await resolveChecked(o.lookup, hostname);
      if (o.direct(address)) {
        socket = netConnect({ host: address, port });
        await new Promise<void>((resolve, reject) => {
          socket!.once('error', reject);
          socket!.once('connect', () => {
            socket!.off('error', reject);
            resolve();
          });
        });
      } else {
        socket = await dialProxy(o.proxy);
        if (settled) return socket.destroy();
        await openTunnel(socket, o.proxy, connectAuthority(address, port));
      }
      if (settled) return socket.destroy();
      if (args.protocol !== 'https:') return finish(null, socket);
      const servername = isIP(hostname) === 0 ? hostname : undefined;
      const secure = await startTls(socket, servername, o.tls);
      if (settled) return secure.destroy();
      socket = secure;
      finish(null, secure);
    })().catch((err: Error) => finish(err, null));
  };
}
