// The sender's connection pools: one keep-alive undici Pool per endpoint and route (direct, tunnelled through a
// proxy, or to the proxy itself), replaced when the endpoint's URL, cap, proxy or certificate changes, bounded in
// number (least recently used idle ones closed first) and closed when idle.

import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { ProxyServer } from '../egress-routes.ts';
import { tunnelConnector } from './proxy-tunnel.ts';
import type { ClientCertificate } from './send-types.ts';

export interface PoolEntry {
  readonly pool: Pool;
  readonly key: string;
  readonly endpointId: string | null;
  readonly connections: number;
  inflight: number;
  lastUsed: number; // performance.now()
}

export interface SendPoolsOptions {
  /** Socket cap of a pool whose request names no cap. */
  readonly defaultConnections: number;
  readonly maxPools: number;
  readonly keepAliveTimeout: number;
  readonly connectTimeout: number;
  /** The SSRF-guarded DNS lookup every direct or tunnelled connection resolves with. */
  readonly lookup: LookupFunction;
  readonly ca: string | Buffer | Array<string | Buffer> | undefined;
  /** Whether a resolved address goes direct (no_proxy), past a tunnelling proxy. */
  readonly direct: (address: string) => boolean;
}

export class SendPools {
  readonly #o: SendPoolsOptions;
  // Keyed `<endpoint id> <origin>` (or the origin alone); Map order is least recently created first.
  readonly #pools = new Map<string, PoolEntry>();
  // The one pool an endpoint uses now: a new URL or cap replaces it.
  readonly #byEndpoint = new Map<string, PoolEntry>();

  constructor(options: SendPoolsOptions) {
    this.#o = options;
  }

  get size(): number {
    return this.#pools.size;
  }

  /** Forget a pool and close it; close() lets requests already on it finish. */
  retire(entry: PoolEntry): void {
    if (this.#pools.get(entry.key) === entry) this.#pools.delete(entry.key);
    if (entry.endpointId !== null && this.#byEndpoint.get(entry.endpointId) === entry)
      this.#byEndpoint.delete(entry.endpointId);
    entry.pool.close().catch(() => {});
  }

  /**
   * The pool of an endpoint (or origin) on one route: direct, tunnelled through a proxy (https), or to the proxy
   * itself (http in absolute form). The route is part of the key, so a changed proxy setting gets a new pool.
   */
  poolFor(
    origin: string,
    endpointId: string | undefined,
    maxConcurrency: number | undefined,
    proxy: ProxyServer | null = null,
    https = true,
    certificate?: ClientCertificate,
  ): PoolEntry {
    const { defaultConnections, maxPools, keepAliveTimeout, connectTimeout, lookup, ca, direct } = this.#o;
    const connections =
      maxConcurrency !== undefined && Number.isInteger(maxConcurrency) && maxConcurrency > 0
        ? maxConcurrency
        : defaultConnections;
    const route = proxy === null ? origin : `${origin} via ${proxy.name} ${proxy.display}`;
    const withCert = certificate === undefined ? route : `${route} cert ${certificate.id}`;
    const key = endpointId === undefined ? withCert : `${endpointId} ${withCert}`;
    let entry = this.#pools.get(key);
    if (entry !== undefined && entry.connections === connections) return entry;
    // The endpoint's URL moved to another origin or its cap changed: its old pool goes (after its sends finish).
    if (entry !== undefined) this.retire(entry);
    const previous = endpointId === undefined ? undefined : this.#byEndpoint.get(endpointId);
    if (previous !== undefined) this.retire(previous);
    if (this.#pools.size >= maxPools) this.#evictLeastRecentlyUsed();
    const tls = {
      ...(ca === undefined ? {} : { ca }),
      ...(certificate === undefined ? {} : { cert: certificate.cert, key: certificate.key }),
    };
    const connect =
      proxy === null
        ? { lookup, timeout: connectTimeout, ...tls }
        : https
          ? tunnelConnector({ proxy, lookup, direct, connectTimeoutMs: connectTimeout, tls })
          : // Absolute form: the pool's origin is the proxy, which the operator chose; the target was checked per send.
            { timeout: connectTimeout };
    const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout, connect });
    entry = { pool, key, endpointId: endpointId ?? null, connections, inflight: 0, lastUsed: performance.now() };
    this.#pools.set(key, entry);
    if (endpointId !== undefined) this.#byEndpoint.set(endpointId, entry);
    return entry;
  }

  /** Over the bound: close the idle pool unused the longest. Pools with sends in flight are never closed. */
  #evictLeastRecentlyUsed(): void {
    let oldest: PoolEntry | undefined;
    for (const entry of this.#pools.values())
      if (entry.inflight === 0 && (oldest === undefined || entry.lastUsed < oldest.lastUsed)) oldest = entry;
    if (oldest !== undefined) this.retire(oldest);
  }

  /** Closes the pools unused for `idleMs`; returns how many. */
  evictIdle(idleMs: number): number {
    const now = performance.now();
    let evicted = 0;
    for (const entry of [...this.#pools.values()]) {
      if (entry.inflight === 0 && now - entry.lastUsed >= idleMs) {
        this.retire(entry);
        evicted++;
      }
    }
    return evicted;
  }

  /** Closes an endpoint's pools (deleted endpoint); sends in flight on them finish first. */
  closeEndpoint(endpointId: string): void {
    for (const entry of [...this.#pools.values()]) if (entry.endpointId === endpointId) this.retire(entry);
  }

  /** Closes every pool; in-flight sends finish. */
  async closeAll(): Promise<void> {
    const all = [...this.#pools.values()];
    this.#pools.clear();
    this.#byEndpoint.clear();
    await Promise.allSettled(all.map((e) => e.pool.close()));
  }
}
