// `hookline breaker status|reset`: reads a circuit breaker, or closes it at once (docs/rules.md#breaker-reset); held deliveries become due.

import { formatDuration } from '@hookline/core/config';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { formatTable } from '../table.ts';
import { type Json, shortTime } from '../views.ts';

const OPTIONS = { ...CLIENT_OPTIONS, endpoint: { type: 'string' } } as const;

export const breaker: Command = {
  name: 'breaker',
  summary: 'show or reset a circuit breaker',
  help: `Usage:
  hookline breaker status [--endpoint <id>]
  hookline breaker reset [--endpoint <id>]

status shows the tenant's breaker (and its endpoint-scope ones), or one endpoint's. reset closes the tenant's breaker (or, with --endpoint, that endpoint's, for policies with endpoint scope)
at once; every held delivery becomes due.

${CLIENT_OPTIONS_HELP}

Example:
  hookline breaker reset --tenant ten_01…`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('breaker', args, OPTIONS, 1);
    const [sub] = positionals;
    if (sub !== 'reset' && sub !== 'status')
      throw usageError(
        sub === undefined
          ? `breaker: missing subcommand (status, reset); see 'hookline breaker --help'`
          : `breaker: unknown subcommand '${sub}' (status, reset)`,
      );
    const api = clientFrom(ctx, 'breaker', values);
    if (sub === 'status') {
      const res = await api.get<Json>(
        values.endpoint
          ? await api.tenantPath(`/endpoints/${encodeURIComponent(values.endpoint)}/breaker`)
          : await api.tenantPath('/breaker'),
      );
      if (values.json) printJson(ctx, res);
      else {
        const rows = res.breaker ? [res.breaker as Json, ...((res.endpoints as Json[] | undefined) ?? [])] : [res];
        out(
          ctx,
          formatTable(rows, [
            { header: 'scope', value: (b) => b.scope_key as string },
            { header: 'state', value: (b) => b.state as string },
            { header: 'pause', value: (b) => (Number(b.pause_ms) ? formatDuration(Number(b.pause_ms)) : '-') },
            { header: 'opened', value: (b) => shortTime(b.opened_at) },
            { header: 'next probe', value: (b) => shortTime(b.next_probe_at) },
          ]),
        );
      }
      return 0;
    }
    const path = values.endpoint
      ? await api.tenantPath(`/endpoints/${encodeURIComponent(values.endpoint)}/breaker/reset`)
      : await api.tenantPath('/breaker/reset');
    const res = (await api.post<Json | undefined>(path)) ?? {};
    if (values.json) printJson(ctx, res);
    else
      out(
        ctx,
        `breaker ${(res.scope_key as string | undefined) ?? values.endpoint ?? (await api.tenant())} is ${(res.state as string | undefined) ?? 'closed'}; its held deliveries are due now`,
      );
    return 0;
  },
};
