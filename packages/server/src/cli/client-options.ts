// Options every client command shares (--api-url, --token, --tenant, --json) and the API client built from them.

import { ApiClient } from './api-client.ts';
import type { CliContext } from './cli-context.ts';
import { usageError } from './cli-error.ts';
import { DEFAULT_CLIENT_CONFIG, resolveClientConfig } from './client-config.ts';

export const CLIENT_OPTIONS = {
  'api-url': { type: 'string' },
  // Parsed only to refuse it with advice: `--url` was the API's address before --api-url (see clientFrom).
  url: { type: 'string' },
  token: { type: 'string' },
  tenant: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Help text lines for CLIENT_OPTIONS, appended to each client command's usage. */
export const CLIENT_OPTIONS_HELP = `Connection:
  --api-url <url>    API base URL (env HOOKLINE_URL, default ${DEFAULT_CLIENT_CONFIG.url})
  --token <token>    admin token or tenant API key (env HOOKLINE_TOKEN)
  --tenant <id>      tenant to act on (env HOOKLINE_TENANT; a tenant API key implies its own)
  --json             print the API's JSON instead of a table`;

export interface ClientFlags {
  'api-url'?: string;
  url?: string;
  token?: string;
  tenant?: string;
}

/**
 * The API client for the connection client-config.ts resolves from the flags and the environment main() was given.
 * `--url` here is refused: it used to be the API's address, and a script that still passes it must not quietly
 * talk to another server (or, with `endpoints set`, where --url is the receiver's, change an endpoint).
 */
export function clientFrom(ctx: CliContext, command: string, values: ClientFlags): ApiClient {
  if (values.url !== undefined)
    throw usageError(
      `${command}: --url is not the API's address any more; use --api-url ${values.url} (or HOOKLINE_URL)`,
    );
  const config = resolveClientConfig({
    argv: { url: values['api-url'], token: values.token, tenant: values.tenant },
    env: ctx.env,
  });
  return new ApiClient({
    url: config.url,
    ...(config.token === null ? {} : { token: config.token }),
    ...(config.tenant === null ? {} : { tenant: config.tenant }),
  });
}
