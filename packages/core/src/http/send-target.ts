// Where a send goes: a delivery URL checked once by the SSRF rules and taken apart for the pool (origin, path, host,
// port, URL credentials as Basic auth), kept per distinct URL so the hot path is a Map lookup.
import { checkEndpointUrl } from './address-guard.ts';

export type Target =
  | {
      readonly ok: true;
      readonly origin: string;
      readonly path: string;
      readonly authorization: string | null;
      /** The URL's host name (brackets removed) and host (with port, as the Host header says it). */
      readonly hostname: string;
      readonly host: string;
      readonly port: number;
      readonly https: boolean;
    }
  | { readonly ok: false; readonly message: string };

const MAX_CACHED_TARGETS = 10_000;

export class SendTargets {
  readonly #rules: { allowHttp: boolean; allowPrivateTargets: boolean };
  // Parsing and checking a URL once per distinct URL keeps the hot path to two Map lookups.
  readonly #targets = new Map<string, Target>();

  constructor(rules: { allowHttp: boolean; allowPrivateTargets: boolean }) {
    this.#rules = rules;
  }

  of(url: string): Target {
    let target = this.#targets.get(url);
    if (target !== undefined) return target;
    const check = checkEndpointUrl(url, this.#rules);
    if (!check.ok) target = { ok: false, message: `${check.code}: ${check.message}` };
    else {
      const u = check.url;
      // Pool.request sends only the path, so URL credentials would silently vanish; send them as Basic auth.
      const authorization =
        u.username || u.password
          ? 'Basic ' +
            Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')
          : null;
      target = {
        ok: true,
        origin: u.origin,
        path: u.pathname + u.search,
        authorization,
        hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
        host: u.host,
        port: u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port),
        https: u.protocol === 'https:',
      };
    }
    if (this.#targets.size >= MAX_CACHED_TARGETS) this.#targets.clear();
    this.#targets.set(url, target);
    return target;
  }
}
