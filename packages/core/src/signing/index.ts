// Public surface of attempt signing: headers per scheme, secret generation, header names.

export {
  generateEd25519Secret,
  isEd25519Secret,
  PUBLIC_KEY_PREFIX,
  publicKeyOf,
  SECRET_KEY_PREFIX,
} from './ed25519-keys.ts';
export type { SignInput, SigningSecret } from './sign-headers.ts';
export { HOOKLINE_HEADERS, STANDARD_HEADERS, signHeaders } from './sign-headers.ts';
export { generateSecret, SECRET_PREFIX, signingKey } from './signing-keys.ts';
