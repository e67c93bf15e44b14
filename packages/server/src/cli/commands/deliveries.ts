// `hookline deliveries list|show|retry|dismiss`: the delivery log and dead letters, filtered; one delivery with every
// attempt; retry now (a pending delivery's next attempt at once); dismissing a failed delivery that holds its key.

import { DELIVERY_STATUSES } from '@hookline/core';
import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, requirePositional, timeValue } from '../parse-args.ts';
import { formatRecord, formatTable } from '../table.ts';
import { ATTEMPT_COLUMNS, DELIVERY_COLUMNS, type Json, type Page, shortTime } from '../views.ts';

const STATUSES: readonly string[] = DELIVERY_STATUSES;

const OPTIONS = {
  ...CLIENT_OPTIONS,
  status: { type: 'string' },
  endpoint: { type: 'string' },
  type: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

export const deliveries: Command = {
  name: 'deliveries',
  summary: 'list deliveries (the dead letter: --status failed), show one with its attempts, retry or dismiss one',
  help: `Usage:
  hookline deliveries list [--status <${STATUSES.join('|')}>] [--endpoint <id>] [--type <event type>]
                           [--since <iso | 2h>] [--until <iso | 10m>] [--limit <n>] [--cursor <c>]
  hookline deliveries show <delivery>
  hookline deliveries retry <delivery>     (a pending delivery's next attempt now, on its ladder)
  hookline deliveries dismiss <delivery>   (a failed delivery holding its ordering key: the key goes on)

  failed deliveries are the dead letter; --since/--until take ISO-8601 or a duration ago.
  dismiss takes only a failed delivery of a key on an endpoint with --on-failure block; it stays
  failed and replayable. retry takes a pending delivery (of an ordering key, only its head); a
  finished one is replayed instead ('hookline replay'); one held by an open breaker waits for it.

${CLIENT_OPTIONS_HELP}

Examples:
  hookline deliveries list --status failed --since 24h
  hookline deliveries show dlv_01…
  hookline deliveries retry dlv_01…`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('deliveries', args, OPTIONS, 2);
    const [sub, id] = positionals;
    const api = clientFrom(ctx, 'deliveries', values);
    if (sub === 'list') {
      if (values.status && !STATUSES.includes(values.status))
        throw usageError(`deliveries list: --status must be one of ${STATUSES.join(', ')}, got '${values.status}'`);
      const now = Date.now();
      const page = await api.get<Page>(await api.tenantPath('/deliveries'), {
        status: values.status,
        endpoint_id: values.endpoint,
        event_type: values.type,
        since: values.since && timeValue('deliveries list', 'since', values.since, now),
        until: values.until && timeValue('deliveries list', 'until', values.until, now),
        limit: values.limit && intValue('deliveries list', 'limit', values.limit, { min: 1, max: MAX_PAGE_LIMIT }),
        cursor: values.cursor,
      });
      if (values.json) printJson(ctx, page);
      else {
        out(ctx, page.items.length ? formatTable(page.items, DELIVERY_COLUMNS) : 'no deliveries match');
        if (page.next_cursor) out(ctx, `more: --cursor ${page.next_cursor}`);
      }
      return 0;
    }
    if (sub === 'show') {
      const d = await api.get<Json>(
        await api.tenantPath(`/deliveries/${encodeURIComponent(requirePositional('deliveries show', 'delivery', id))}`),
      );
      if (values.json) {
        printJson(ctx, d);
        return 0;
      }
      out(
        ctx,
        formatRecord([
          ['id', d.id],
          ['environment', d.environment],
          ['status', d.status],
          ['event', `${d.event_id as string} (${d.event_type as string}${d.is_money ? ', money' : ''})`],
          ['endpoint', d.endpoint_id],
          ['ladder', d.ladder],
          ['attempts', d.attempt_count],
          ['created', shortTime(d.created_at)],
          ['next attempt', shortTime(d.next_attempt_at)],
          ['reason', d.terminal_reason],
          ...(d.ordering_key != null
            ? [
                [
                  'ordering key',
                  `${d.ordering_key as string} (#${d.ordering_seq as number})${d.dismissed_at ? `, dismissed ${shortTime(d.dismissed_at)}` : ''}`,
                ] as [string, unknown],
              ]
            : []),
        ]),
      );
      const attempts = (d.attempts as Json[] | undefined) ?? [];
      out(ctx);
      out(ctx, attempts.length ? formatTable(attempts, ATTEMPT_COLUMNS) : 'no attempts yet');
      const last = attempts.at(-1);
      if (last?.response_body_excerpt)
        out(ctx, `\nlast response body: ${String(last.response_body_excerpt).slice(0, 500)}`);
      if (d.payload !== undefined) out(ctx, `\npayload: ${JSON.stringify(d.payload)}`);
      return 0;
    }
    if (sub === 'retry') {
      const d = await api.post<Json>(
        await api.tenantPath(
          `/deliveries/${encodeURIComponent(requirePositional('deliveries retry', 'delivery', id))}/retry`,
        ),
        {},
      );
      if (values.json) printJson(ctx, d);
      else
        out(
          ctx,
          `retrying ${d.id as string} now: attempt ${(d.attempt_count as number) + 1}, on its ${d.ladder as string} ladder`,
        );
      return 0;
    }
    if (sub === 'dismiss') {
      const d = await api.post<Json>(
        await api.tenantPath(
          `/deliveries/${encodeURIComponent(requirePositional('deliveries dismiss', 'delivery', id))}/dismiss`,
        ),
        {},
      );
      if (values.json) printJson(ctx, d);
      else
        out(
          ctx,
          `dismissed ${d.id as string}: it stays failed; later deliveries of key ${d.ordering_key as string} go on`,
        );
      return 0;
    }
    throw usageError(
      sub === undefined
        ? `deliveries: missing subcommand (list, show, retry, dismiss); see 'hookline deliveries --help'`
        : `deliveries: unknown subcommand '${sub}' (list, show, retry, dismiss)`,
    );
  },
};
