// Options every client command shares (--url, --token, --tenant, --json) and the API client built from them.
import { ApiClient } from './api-client.ts';
import type { CliContext } from './cli-context.ts';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export const CLIENT_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  tenant: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Help text lines for CLIENT_OPTIONS, appended to each client command's usage. */
export const CLIENT_OPTIONS_HELP = `Connection:
  --url <url>        API base URL (env HOOKLINE_URL, default ${DEFAULT_URL})
  --token <token>    admin token or tenant API key (env HOOKLINE_TOKEN)
  --tenant <id>      tenant to act on (env HOOKLINE_TENANT)
  --json             print the API's JSON instead of a table`;

export function clientFrom(ctx: CliContext, values: { url?: string; token?: string; tenant?: string }): ApiClient {
  return new ApiClient({
    url: values.url ?? ctx.env.HOOKLINE_URL ?? DEFAULT_URL,
    token: values.token ?? ctx.env.HOOKLINE_TOKEN,
    tenant: values.tenant ?? ctx.env.HOOKLINE_TENANT,
  });
}
