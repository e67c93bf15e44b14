// Public surface of attempt signing: headers per scheme, secret generation, header names.
export { signHeaders, HOOKLINE_HEADERS, STANDARD_HEADERS } from './sign-headers.ts';
export type { SignInput, SigningSecret } from './sign-headers.ts';
export { generateSecret, SECRET_PREFIX } from './signing-keys.ts';
export { generateEd25519Secret, publicKeyOf, isEd25519Secret, SECRET_KEY_PREFIX, PUBLIC_KEY_PREFIX } from './ed25519-keys.ts';
