// Decides which endpoint URLs and resolved addresses Hookline may connect to (docs/rules.md#endpoint-url: no private targets, SSRF).
import { isIP } from 'node:net';
import { ERROR_CATALOG } from '../errors.ts';

export const MAX_URL_LENGTH = 2048;

/** [network, prefix length] pairs of IPv4 space that is not globally reachable (IANA special-purpose registry). */
const NON_PUBLIC_V4: ReadonlyArray<readonly [number, number]> = [
  [v4('0.0.0.0'), 8], // "this network"
  [v4('10.0.0.0'), 8], // private
  [v4('100.64.0.0'), 10], // carrier-grade NAT
  [v4('127.0.0.0'), 8], // loopback
  [v4('169.254.0.0'), 16], // link-local, cloud metadata (169.254.169.254)
  [v4('172.16.0.0'), 12], // private
  [v4('192.0.0.0'), 24], // IETF protocol assignments
  [v4('192.0.2.0'), 24], // TEST-NET-1
  [v4('192.88.99.0'), 24], // deprecated 6to4 relay anycast
  [v4('192.168.0.0'), 16], // private
  [v4('198.18.0.0'), 15], // benchmarking
  [v4('198.51.100.0'), 24], // TEST-NET-2
  [v4('203.0.113.0'), 24], // TEST-NET-3
  [v4('224.0.0.0'), 4], // multicast
  [v4('240.0.0.0'), 4], // reserved, includes broadcast 255.255.255.255
];

function v4(dotted: string): number {
  const n = parseV4(dotted);
  if (n === null) throw new Error(`bad IPv4 constant ${dotted}`);
  return n;
}

/** Strict dotted quad to an unsigned 32-bit number; null for anything else. */
function parseV4(s: string): number | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const octet = Number(p);
    if (octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

function isPublicV4(n: number): boolean {
  for (const [net, bits] of NON_PUBLIC_V4) {
    // Division instead of >>> keeps everything in unsigned range for /4 networks.
    const size = 2 ** (32 - bits);
    if (Math.floor(n / size) === Math.floor(net / size)) return false;
  }
  return true;
}

/** Eight 16-bit groups, or null when `s` is not an IPv6 address. Accepts a trailing dotted IPv4 and drops a zone id. */
function parseV6(s: string): number[] | null {
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseSide = (side: string): number[] | null => {
    if (side === '') return [];
    const out: number[] = [];
    const groups = side.split(':');
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if (i === groups.length - 1 && g.includes('.')) {
        const n = parseV4(g);
        if (n === null) return null;
        out.push(Math.floor(n / 65536), n % 65536);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = parseSide(halves[0]);
  const tail = halves.length === 2 ? parseSide(halves[1]) : [];
  if (head === null || tail === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function isPublicV6(g: number[]): boolean {
  const v4At = (i: number) => g[i] * 65536 + g[i + 1];
  const zeroUpTo = (end: number) => g.slice(0, end).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d and deprecated IPv4-compatible ::a.b.c.d (covers :: and ::1): judge the embedded IPv4.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return isPublicV4(v4At(6));
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 through a translator.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) {
    return isPublicV4(v4At(6));
  }
  // Only global unicast 2000::/3 is public; this excludes fc00::/7 unique-local, fe80::/10 link-local,
  // fec0::/10 site-local, ff00::/8 multicast, 64:ff9b:1::/48 local NAT64 and the rest of ::/8.
  if ((g[0] & 0xe000) !== 0x2000) return false;
  if (g[0] === 0x2002) return isPublicV4(v4At(1)); // 6to4 embeds the IPv4 in bits 16..47
  if (g[0] === 0x2001 && g[1] < 0x200) return false; // 2001::/23 IETF assignments: Teredo, benchmarking, ORCHID
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return false; // 3fff::/20 documentation
  return true;
}

/** True only for a globally reachable unicast IPv4 or IPv6 address; anything unparsable is not public. */
export function isPublicAddress(ip: string): boolean {
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  if (ip.includes(':')) {
    const groups = parseV6(ip);
    return groups !== null && isPublicV6(groups);
  }
  const n = parseV4(ip);
  return n !== null && isPublicV4(n);
}

export type UrlRefusalCode = 'url_invalid' | 'url_must_be_https' | 'url_too_long' | 'url_private_address';

export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: UrlRefusalCode; readonly message: string };

export interface UrlRules {
  /** Plain http, only with the server's explicit development flag. */
  readonly allowHttp?: boolean;
  /** Loopback and private targets, for tests and development only. */
  readonly allowPrivateTargets?: boolean;
}

const refuse = (code: UrlRefusalCode): UrlCheck => ({ ok: false, code, message: ERROR_CATALOG[code].message });

/** Names that always mean this machine; checked here because they may never reach DNS (RFC 6761). */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.endsWith('.') ? hostname.slice(0, -1).toLowerCase() : hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost');
}

/** Cloud instance-metadata names: they resolve to link-local addresses inside the cloud, so refuse them by name too. */
const METADATA_HOSTNAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);

export function isMetadataHostname(hostname: string): boolean {
  const h = hostname.endsWith('.') ? hostname.slice(0, -1).toLowerCase() : hostname.toLowerCase();
  return METADATA_HOSTNAMES.has(h);
}

/**
 * Registration-time URL rules (docs/rules.md#endpoint-url). A hostname is only checked for `localhost` and metadata names; its resolved
 * addresses are checked again at connect time (DNS rebinding), see guarded-lookup.ts.
 * Credentials in the URL are allowed: the sender turns them into an `Authorization: Basic` header.
 */
export function checkEndpointUrl(url: string, rules: UrlRules = {}): UrlCheck {
  if (typeof url !== 'string' || url.length === 0) return refuse('url_invalid');
  if (url.length > MAX_URL_LENGTH) return refuse('url_too_long');
  // WHATWG URL silently drops tabs and line breaks and trims control characters and spaces: a URL holding any is
  // refused rather than rewritten (CR/LF is also how a header injection attempt looks).
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return refuse('url_invalid');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('url_invalid');
  }
  if (parsed.protocol !== 'https:') {
    if (!rules.allowHttp) return refuse('url_must_be_https');
    if (parsed.protocol !== 'http:') return refuse('url_invalid');
  }
  if (parsed.hostname === '') return refuse('url_invalid');
  if (!rules.allowPrivateTargets) {
    // WHATWG URL has already normalised 0x7f.1, 2130706433 and friends into a dotted quad.
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    if (isIP(host) !== 0 ? !isPublicAddress(host) : isLocalHostname(host) || isMetadataHostname(host)) return refuse('url_private_address');
  }
  return { ok: true, url: parsed };
}
