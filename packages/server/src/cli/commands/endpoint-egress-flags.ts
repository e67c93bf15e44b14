// The endpoint's egress settings as flags (docs/rules.md#egress-proxy): --proxy, --client-cert/--client-key (PEM
// files) and the --oauth2-* flags, and the API fields they become (proxy, client_certificate, oauth2).
import { readFileSync } from 'node:fs';
import { usageError } from '../cli-error.ts';
import type { UpdateEndpointBody } from '../request-bodies.ts';

export const EGRESS_OPTIONS = {
  proxy: { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  'oauth2-token-url': { type: 'string' },
  'oauth2-client-id': { type: 'string' },
  'oauth2-client-secret': { type: 'string' },
  'oauth2-scope': { type: 'string' },
  'oauth2-audience': { type: 'string' },
} as const;

export const EGRESS_FLAGS = Object.keys(EGRESS_OPTIONS) as ReadonlyArray<keyof typeof EGRESS_OPTIONS>;

export type EgressValues = { [K in keyof typeof EGRESS_OPTIONS]?: string };

function pem(command: string, flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw usageError(`${command}: --${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The API fields of the egress flags given; the server checks the values (proxy_invalid, client_certificate_invalid, oauth_client_invalid). */
export function egressBody(
  command: string,
  values: EgressValues,
): Pick<UpdateEndpointBody, 'proxy' | 'client_certificate' | 'oauth2'> {
  const body: Pick<UpdateEndpointBody, 'proxy' | 'client_certificate' | 'oauth2'> = {};
  if (values.proxy !== undefined) body.proxy = values.proxy === 'default' ? null : values.proxy;
  const cert = values['client-cert'];
  const key = values['client-key'];
  if (cert === 'none') {
    if (key !== undefined)
      throw usageError(`${command}: --client-cert none removes the certificate; drop --client-key`);
    body.client_certificate = null;
  } else if (cert !== undefined || key !== undefined) {
    if (cert === undefined || key === undefined)
      throw usageError(`${command}: --client-cert and --client-key go together (PEM files), or --client-cert none`);
    body.client_certificate = { certificate: pem(command, 'client-cert', cert), key: pem(command, 'client-key', key) };
  }
  const url = values['oauth2-token-url'];
  const rest = (['oauth2-client-id', 'oauth2-client-secret', 'oauth2-scope', 'oauth2-audience'] as const).filter(
    (f) => values[f] !== undefined,
  );
  if (url === 'none') {
    if (rest.length > 0) throw usageError(`${command}: --oauth2-token-url none removes OAuth2; drop --${rest[0]}`);
    body.oauth2 = null;
  } else if (url !== undefined || rest.length > 0) {
    if (url === undefined || values['oauth2-client-id'] === undefined)
      throw usageError(
        `${command}: OAuth2 needs --oauth2-token-url and --oauth2-client-id (and a secret the first time)`,
      );
    const oauth2: NonNullable<UpdateEndpointBody['oauth2']> = { token_url: url, client_id: values['oauth2-client-id'] };
    if (values['oauth2-client-secret'] !== undefined) oauth2.client_secret = values['oauth2-client-secret'];
    if (values['oauth2-scope'] !== undefined) oauth2.scope = values['oauth2-scope'] || null;
    if (values['oauth2-audience'] !== undefined) oauth2.audience = values['oauth2-audience'] || null;
    body.oauth2 = oauth2;
  }
  return body;
}
