// The connect-time half of the SSRF guard: a dns.lookup for sockets that never yields a non-public address.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isLocalHostname, isMetadataHostname, isPublicAddress } from './address-guard.ts';

/** dns.lookup with `all: true`; injectable so tests resolve names without DNS. */
export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const defaultLookupAll: LookupAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

export const REFUSED_ADDRESS_CODE = 'ERR_HOOKLINE_REFUSED_ADDRESS';

/** The target resolved only to private, loopback or otherwise non-public addresses. */
export class RefusedAddressError extends Error {
  readonly code = REFUSED_ADDRESS_CODE;
  readonly hostname: string;
  readonly addresses: readonly string[];
  constructor(hostname: string, addresses: readonly string[]) {
    super(
      addresses.length === 0
        ? `refused to connect to ${hostname}: a name for this machine`
        : `refused to connect to ${hostname}: resolves only to non-public addresses (${addresses.join(', ')})`,
    );
    this.name = 'RefusedAddressError';
    this.hostname = hostname;
    this.addresses = addresses;
  }
}

export interface GuardedLookupOptions {
  readonly lookup?: LookupAll;
  /** Pass every address through (tests and development against loopback). */
  readonly allowPrivateTargets?: boolean;
}

/**
 * A `lookup` for net/tls.connect. Checking the address the socket actually dials closes the DNS-rebinding gap
 * between registration and delivery. Non-public addresses are dropped; if none remain the connect fails with
 * RefusedAddressError before any socket is opened. Node calls lookup only for names, never for IP literals:
 * the sender checks literals itself.
 */
export function createGuardedLookup(options: GuardedLookupOptions = {}): LookupFunction {
  const lookup = options.lookup ?? defaultLookupAll;
  const allowPrivate = options.allowPrivateTargets === true;
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    // Node's happy-eyeballs path asks for every address; a plain connect asks for one.
    const wantAll = lookupOptions.all === true;
    if (!allowPrivate && (isLocalHostname(hostname) || isMetadataHostname(hostname))) {
      callback(new RefusedAddressError(hostname, []), wantAll ? [] : '', 0);
      return;
    }
    lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err || addresses.length === 0) {
        const failure =
          err ?? Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
        callback(failure, wantAll ? [] : '', 0);
        return;
      }
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        const refused = new RefusedAddressError(
          hostname,
          addresses.map((a) => a.address),
        );
        callback(refused, wantAll ? [] : '', 0);
        return;
      }
      if (wantAll) callback(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    });
  };
}
