// `hookline audit [list]|verify|export`: the audit log (docs/audit.md) — every change made through the API, CLI or
// console, who made it and from where; verification of its hash chain; an NDJSON export.

import { out, printJson } from '../cli-context.ts';
import { EXIT, usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { formatTable } from '../table.ts';
import type { Json } from '../views.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  action: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string' },
} as const;

/** Entries per request while exporting: one page in memory at a time. */
const EXPORT_PAGE = 200;

export const audit: Command = {
  name: 'audit',
  summary: 'read, verify or export the audit log',
  help: `Usage:
  hookline audit [list] [--tenant <id>] [--action <action>] [--since <time>] [--until <time>] [--limit <n>]
  hookline audit verify
  hookline audit export [--tenant <id>] [--action <action>] [--since <time>] [--until <time>]

list shows the newest entries: when, who (admin, api_key, console_session, portal_link, system) and from where,
the action and its target, and the fields it changed. With the admin token it reads every tenant's entries (--tenant
narrows them to one); with a tenant API key, its own tenant's.
verify walks the hash chain from its checkpoint and names the first entry that was edited or deleted (admin token;
exit 1 when the chain is broken).
export prints every matching entry as NDJSON, one JSON object per line, oldest page last.
Times are ISO-8601 (2026-01-05T12:00:00Z).

${CLIENT_OPTIONS_HELP}

Examples:
  hookline audit --tenant ten_01… --action endpoint.update
  hookline audit verify
  hookline audit export --since 2026-01-01 > audit.ndjson`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('audit', args, OPTIONS, 1);
    const sub = positionals[0] ?? 'list';
    if (sub !== 'list' && sub !== 'verify' && sub !== 'export')
      throw usageError(`audit: unknown subcommand '${sub}' (list, verify, export)`);
    const api = clientFrom(ctx, 'audit', values);
    if (sub === 'verify') {
      const v = await api.get<Json>('/v1/audit-log/verify');
      if (values.json) printJson(ctx, v);
      else if (v.ok) out(ctx, `audit log ok: ${v.checked} entries verified from seq ${(v.from as Json).seq}`);
      else {
        const b = v.broken as Json;
        out(ctx, `audit log BROKEN at entry ${b.seq}: ${b.reason}`);
      }
      return v.ok ? EXIT.ok : EXIT.failure;
    }
    const path = api.tenantKey ? await api.tenantPath('/audit-log') : '/v1/audit-log';
    const query = {
      ...(api.tenantKey ? {} : { tenant: api.namedTenant }),
      action: values.action,
      since: values.since,
      until: values.until,
    };
    if (sub === 'export') {
      let cursor: string | undefined;
      do {
        const page = await api.get<{ items: Json[]; next_cursor: string | null }>(path, {
          ...query,
          limit: EXPORT_PAGE,
          cursor,
        });
        for (const e of page.items) ctx.stdout.write(`${JSON.stringify(e)}\n`);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return 0;
    }
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw usageError('audit: --limit must be 1 to 200');
    const page = await api.get<{ items: Json[]; next_cursor: string | null }>(path, { ...query, limit });
    if (values.json) printJson(ctx, page);
    else
      out(
        ctx,
        formatTable(page.items, [
          { header: 'seq', value: (e) => String(e.seq) },
          { header: 'at', value: (e) => e.at as string },
          {
            header: 'actor',
            value: (e) => `${(e.actor as Json).kind}${(e.actor as Json).id ? `:${(e.actor as Json).id}` : ''}`,
          },
          { header: 'action', value: (e) => e.action as string },
          { header: 'target', value: (e) => `${(e.target as Json).type}:${(e.target as Json).id ?? '-'}` },
          { header: 'changed', value: (e) => Object.keys(e.changes as Json).join(', ') || '-' },
        ]),
      );
    return 0;
  },
};
