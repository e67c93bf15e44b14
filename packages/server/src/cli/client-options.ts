// Options every client command shares (--url, --token, --tenant, --json) and the API client built from them.

import { ApiClient } from './api-client.ts';
import type { CliContext } from './cli-context.ts';
import { DEFAULT_CLIENT_CONFIG, resolveClientConfig } from './client-config.ts';

export const CLIENT_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  tenant: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Help text lines for CLIENT_OPTIONS, appended to each client command's usage. */
export const CLIENT_OPTIONS_HELP = `Connection:
  --url <url>        API base URL (env HOOKLINE_URL, default ${DEFAULT_CLIENT_CONFIG.url})
  --token <token>    admin token or tenant API key (env HOOKLINE_TOKEN)
  --tenant <id>      tenant to act on (env HOOKLINE_TENANT)
  --json             print the API's JSON instead of a table`;

/** The API client for the connection client-config.ts resolves from the flags and the environment main() was given. */
export function clientFrom(ctx: CliContext, values: { url?: string; token?: string; tenant?: string }): ApiClient {
  const config = resolveClientConfig({ argv: values, env: ctx.env });
  return new ApiClient({
    url: config.url,
    ...(config.token === null ? {} : { token: config.token }),
    ...(config.tenant === null ? {} : { tenant: config.tenant }),
  });
}
