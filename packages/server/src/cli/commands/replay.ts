// `hookline replay`: one delivery again (same ids), or an endpoint's failed deliveries in a time window (docs/rules.md#replay).

import type { ApiClient } from '../api-client.ts';
import { type CliContext, note, out, printJson } from '../cli-context.ts';
import { CliError, EXIT, usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs, timeValue } from '../parse-args.ts';
import { createProgressBar } from '../progress-bar.ts';
import type { ReplayWindowBody } from '../request-bodies.ts';
import type { Json } from '../views.ts';
import { pause } from '../wait.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  endpoint: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'include-skipped': { type: 'boolean' },
  wait: { type: 'boolean' },
} as const;

const POLL_MS = 500;

export const replay: Command = {
  name: 'replay',
  summary: "replay one delivery, or an endpoint's failed deliveries in a time window",
  help: `Usage:
  hookline replay <delivery> [--wait]
  hookline replay --endpoint <endpoint> [--since <iso | 24h>] [--until <iso | 0s>] [--include-skipped] [--wait]

One attempt now for each selected delivery, same ids and body. A window replay selects the endpoint's
failed (and with --include-skipped, skipped) deliveries attempted within [since, until] (default: the
last 24 h), never one that succeeded; at most 20 window replays per tenant per UTC day.

  --wait   follow the replay's progress (a bar on a terminal, plain lines otherwise) until every selected
           delivery has had its attempt; exits 1 if any of them failed again

${CLIENT_OPTIONS_HELP}

Examples:
  hookline replay dlv_01…
  hookline replay --endpoint ep_01… --since 2026-01-05T00:00:00Z --include-skipped --wait`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('replay', args, OPTIONS, 1);
    const [deliveryId] = positionals;
    const api = clientFrom(ctx, 'replay', values);
    let res: Json;
    if (values.endpoint !== undefined) {
      if (deliveryId) throw usageError('replay: give a delivery id or --endpoint, not both');
      const now = Date.now();
      const body: ReplayWindowBody = {};
      if (values.since) body.since = timeValue('replay', 'since', values.since, now);
      if (values.until) body.until = timeValue('replay', 'until', values.until, now);
      if (values['include-skipped']) body.include_skipped = true;
      res = await api.post<Json>(
        await api.tenantPath(`/endpoints/${encodeURIComponent(values.endpoint)}/replays`),
        body,
      );
    } else {
      if (!deliveryId) throw usageError(`replay: missing <delivery> or --endpoint <id>; see 'hookline replay --help'`);
      for (const flag of ['since', 'until', 'include-skipped'] as const) {
        if (values[flag] !== undefined) throw usageError(`replay: --${flag} goes with --endpoint (a window replay)`);
      }
      res = await api.post<Json>(await api.tenantPath(`/deliveries/${encodeURIComponent(deliveryId)}/replay`));
    }
    const replayId =
      (res.replay_id as string | undefined) ??
      ((res.replay as Json | undefined)?.id as string | undefined) ??
      (res.id as string | undefined);
    const first = (res.replay as Json | undefined) ?? res;
    if (!values.wait || !replayId) {
      if (values.json) printJson(ctx, res);
      else
        out(
          ctx,
          `replay ${replayId ?? '?'} started: ${(first.selected as number | undefined) ?? 1} deliver${first.selected === 1 ? 'y' : 'ies'} selected`,
        );
      return 0;
    }
    const final = await follow(ctx, api, replayId);
    if (values.json) printJson(ctx, final);
    else
      out(
        ctx,
        `replay ${replayId}: ${final.selected as number} selected, ${final.succeeded as number} succeeded, ${final.failed as number} failed`,
      );
    return (final.failed as number) > 0 ? EXIT.failure : EXIT.ok;
  },
};

/** Polls the replay until every selected delivery has had its attempt; the bar goes to stderr. */
async function follow(ctx: CliContext, api: ApiClient, replayId: string): Promise<Json> {
  const bar = createProgressBar(ctx.stderr, `replay ${replayId}`);
  for (;;) {
    const r = await api.get<Json>(await api.tenantPath(`/replays/${encodeURIComponent(replayId)}`));
    const selected = Number(r.selected ?? 0);
    const attempted = Number(r.attempted ?? 0);
    bar.update(attempted, selected, `(${Number(r.succeeded ?? 0)} ok, ${Number(r.failed ?? 0)} failed)`);
    if (r.done === true || attempted >= selected) {
      bar.finish();
      return r;
    }
    if (!(await pause(ctx, POLL_MS))) {
      bar.finish();
      note(ctx, `stopped waiting; replay ${replayId} goes on in the server`);
      throw new CliError(EXIT.failure, 'interrupted');
    }
  }
}
