// Public surface of the delivery HTTP client and the SSRF guard.

export type { UrlCheck, UrlRefusalCode, UrlRules } from './address-guard.ts';
export {
  checkEndpointUrl,
  isLocalHostname,
  isMetadataHostname,
  isPublicAddress,
  MAX_URL_LENGTH,
} from './address-guard.ts';
export { classifyTransportError, outcomeForStatus } from './classify-send.ts';
export type { GuardedLookupOptions, LookupAll } from './guarded-lookup.ts';
export { createGuardedLookup, defaultLookupAll, REFUSED_ADDRESS_CODE, RefusedAddressError } from './guarded-lookup.ts';
export type { Sender, SenderOptions, SendRequest, SendResult } from './sender.ts';
export { createSender, DEFAULT_USER_AGENT } from './sender.ts';
