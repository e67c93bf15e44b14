// Public surface of the delivery HTTP client and the SSRF guard.
export { createSender, DEFAULT_USER_AGENT } from './sender.ts';
export type { Sender, SenderOptions, SendRequest, SendResult } from './sender.ts';
export { checkEndpointUrl, isPublicAddress, isLocalHostname, isMetadataHostname, MAX_URL_LENGTH } from './address-guard.ts';
export type { UrlCheck, UrlRefusalCode, UrlRules } from './address-guard.ts';
export { createGuardedLookup, RefusedAddressError, REFUSED_ADDRESS_CODE, defaultLookupAll } from './guarded-lookup.ts';
export type { LookupAll, GuardedLookupOptions } from './guarded-lookup.ts';
export { outcomeForStatus, classifyTransportError } from './classify-send.ts';
