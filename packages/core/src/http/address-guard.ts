// Decides which endpoint URLs and resolved addresses Hookline may connect to (docs/rules.md#endpoint-url: no private targets, SSRF).
import { BlockList, isIP } from 'node:net';
import { ERROR_CATALOG } from '../errors.ts';

export const MAX_URL_LENGTH = 2048;

/** [network, prefix length] pairs of IPv4 space that is not globally reachable (IANA special-purpose registry). */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
];

/**
 * IPv6 prefixes whose low 32 bits are an IPv4 address the packet ends up at: judged by that IPv4 alone.
 * IPv4-mapped ::ffff:0:0/96, deprecated IPv4-compatible ::/96 (covers :: and ::1), NAT64 well-known 64:ff9b::/96.
 */
const EMBEDS_V4_LOW: ReadonlyArray<readonly [string, (v4: string) => string]> = [
  ['::ffff:0:0', (v4) => `::ffff:${v4}`],
  ['::', (v4) => `::${v4}`],
  ['64:ff9b::', (v4) => `64:ff9b::${v4}`],
];

/** The 32 bits of a dotted quad as two hex groups, for building 6to4 prefixes. */
function hexGroups(v4: string): string {
  const [a, b, c, d] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Every address that is not public, as a net.BlockList (which also matches an IPv4 rule for its ::ffff: form). */
const NON_PUBLIC = new BlockList();
for (const [net, bits] of NON_PUBLIC_V4) {
  NON_PUBLIC.addSubnet(net, bits, 'ipv4');
  for (const [, embed] of EMBEDS_V4_LOW) NON_PUBLIC.addSubnet(embed(net), 96 + bits, 'ipv6');
  NON_PUBLIC.addSubnet(`2002:${hexGroups(net)}::`, 16 + bits, 'ipv6'); // 6to4 embeds the IPv4 in bits 16..47
}
NON_PUBLIC.addSubnet('2001::', 23, 'ipv6'); // IETF assignments: Teredo, benchmarking, ORCHID
NON_PUBLIC.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
NON_PUBLIC.addSubnet('3fff::', 20, 'ipv6'); // documentation

/**
 * IPv6 that may be public: global unicast 2000::/3 (which excludes fc00::/7 unique-local, fe80::/10 link-local,
 * fec0::/10 site-local, ff00::/8 multicast, 64:ff9b:1::/48 local NAT64 and the rest of ::/8), and the prefixes that
 * embed an IPv4, whose non-public part NON_PUBLIC holds.
 */
const MAYBE_PUBLIC_V6 = new BlockList();
MAYBE_PUBLIC_V6.addSubnet('2000::', 3, 'ipv6');
for (const [prefix] of EMBEDS_V4_LOW) MAYBE_PUBLIC_V6.addSubnet(prefix, 96, 'ipv6');

/** True only for a globally reachable unicast IPv4 or IPv6 address; anything unparsable is not public. */
export function isPublicAddress(ip: string): boolean {
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const version = isIP(ip);
  if (version === 0) return false;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (NON_PUBLIC.check(ip, family)) return false;
  return family === 'ipv4' || MAYBE_PUBLIC_V6.check(ip, family);
}

export type UrlRefusalCode =
  | 'url_invalid'
  | 'url_must_be_https'
  | 'url_scheme_unsupported'
  | 'url_too_long'
  | 'url_private_address';

export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | {
      readonly ok: false;
      readonly code: UrlRefusalCode;
      readonly message: string;
      /** The values the catalog message names (`scheme`), for `fail(code, params)`. */
      readonly params: Readonly<Record<string, string>>;
    };

export interface UrlRules {
  /** Plain http, only with the server's explicit development flag. */
  readonly allowHttp?: boolean;
  /** Loopback and private targets, for tests and development only. */
  readonly allowPrivateTargets?: boolean;
}

const refuse = (code: UrlRefusalCode, params: Record<string, string> = {}): UrlCheck => ({
  ok: false,
  code,
  message: ERROR_CATALOG[code].message.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? `{${k}}`),
  params,
});

/** Names that always mean this machine; checked here because they may never reach DNS (RFC 6761). */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.endsWith('.') ? hostname.slice(0, -1).toLowerCase() : hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost');
}

/** Cloud instance-metadata names: they resolve to link-local addresses inside the cloud, so refuse them by name too. */
const METADATA_HOSTNAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
]);

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
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point of this check.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return refuse('url_invalid');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('url_invalid');
  }
  // ftp:, ws:, file: … are named as the problem, whatever the http rule: https would not be the whole answer.
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return refuse('url_scheme_unsupported', { scheme: parsed.protocol.slice(0, -1) });
  if (parsed.protocol !== 'https:' && !rules.allowHttp) return refuse('url_must_be_https');
  if (parsed.hostname === '') return refuse('url_invalid');
  if (!rules.allowPrivateTargets) {
    // WHATWG URL has already normalised 0x7f.1, 2130706433 and friends into a dotted quad.
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    if (isIP(host) !== 0 ? !isPublicAddress(host) : isLocalHostname(host) || isMetadataHostname(host))
      return refuse('url_private_address');
  }
  return { ok: true, url: parsed };
}
