// `hookline tenants create|list|show|set|usage|delete`: the provider's customers (admin token for create, list,
// delete and limits).

import { ENVIRONMENTS, type Environment } from '@hookline/core';
import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, requirePositional, requireValue } from '../parse-args.ts';
import type { CreateApiKeyBody, CreateTenantBody, UpdateTenantBody } from '../request-bodies.ts';
import { formatRecord, formatTable } from '../table.ts';
import { type Json, type Page, shortTime, TENANT_COLUMNS } from '../views.ts';
import { LIMIT_HELP, LIMIT_OPTIONS, limitsBody } from './tenant-limits.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  name: { type: 'string' },
  environment: { type: 'string' },
  'owner-email': { type: 'string', multiple: true },
  'no-email': { type: 'boolean' },
  'api-key': { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  ...LIMIT_OPTIONS,
} as const;

/** `--environment`: test or live (docs/rules.md#environments); absent stays absent (the server's default, or no filter). */
function environmentValue(command: string, raw: string | undefined): Environment | undefined {
  if (raw === undefined) return undefined;
  const environment = ENVIRONMENTS.find((e) => e === raw);
  if (environment === undefined)
    throw usageError(`${command}: --environment must be ${ENVIRONMENTS.join(' or ')}, got '${raw}'`);
  return environment;
}

export const tenants: Command = {
  name: 'tenants',
  summary: 'create, list, show, edit and delete tenants; their limits and usage',
  help: `Usage:
  hookline tenants create --name <name> [--environment test|live] [--owner-email <email>]… [--no-email] [--api-key]
  hookline tenants list [--environment test|live] [--limit <n>] [--cursor <c>]
  hookline tenants show [<tenant>]        (default: --tenant / HOOKLINE_TENANT)
  hookline tenants set [<tenant>] [--name <name>] [--owner-email <email>]… [limits]
  hookline tenants usage [<tenant>]       today's events (UTC), rate and endpoints against the limits
  hookline tenants delete <tenant>        (deletes everything the tenant owns)

  --environment  test or live (default live), fixed at creation: a test tenant's keys are hk_test_…;
                 with list, only that environment's tenants
  --api-key      also create an API key for the new tenant and print it (shown once)

Limits (docs/rules.md#tenant-limits), with set:
${LIMIT_HELP}

${CLIENT_OPTIONS_HELP}

Examples:
  hookline tenants create --name "Acme" --owner-email ops@acme.test --api-key
  hookline tenants create --name "Acme (staging)" --environment test --api-key
  hookline tenants list --environment test
  hookline tenants list --json
  hookline tenants set ten_123 --events-per-s 50 --events-per-day 100000 --max-endpoints 10
  hookline tenants set ten_123 --events-per-day none`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('tenants', args, OPTIONS, 2);
    const [sub, id] = positionals;
    const api = clientFrom(ctx, 'tenants', values);
    const show = (t: Json) =>
      formatRecord([
        ['id', t.id],
        ['name', t.name],
        ['environment', t.environment],
        ['owners', (t.owner_emails as string[]).join(', ')],
        ['email notices', t.notify_email],
        ['operations endpoint', t.operations_endpoint_id],
        ['limits', limitsLine(t.limits as Json | undefined)],
        ['created', shortTime(t.created_at)],
      ]);
    switch (sub) {
      case 'create': {
        const name = requireValue('tenants create', 'name', values.name);
        const environment = environmentValue('tenants create', values.environment);
        const body: CreateTenantBody = {
          name,
          ...(environment ? { environment } : {}),
          ...(values['owner-email'] ? { owner_emails: values['owner-email'] } : {}),
          ...(values['no-email'] ? { notify_email: false } : {}),
        };
        const t = await api.post<Json>('/v1/tenants', body);
        const keyBody: CreateApiKeyBody = { name: 'created by hookline tenants create' };
        const key = values['api-key']
          ? await api.post<Json>(`/v1/tenants/${encodeURIComponent(t.id as string)}/api-keys`, keyBody)
          : null;
        if (values.json) printJson(ctx, key ? { ...t, api_key: key } : t);
        else {
          out(ctx, show(t));
          if (key)
            out(ctx, `api key:             ${key.key as string}   (shown once; use as --token or HOOKLINE_TOKEN)`);
        }
        return 0;
      }
      case 'list': {
        const environment = environmentValue('tenants list', values.environment);
        const page = await api.get<Page>('/v1/tenants', {
          environment,
          limit: values.limit && intValue('tenants list', 'limit', values.limit, { min: 1, max: MAX_PAGE_LIMIT }),
          cursor: values.cursor,
        });
        if (values.json) printJson(ctx, page);
        else {
          out(
            ctx,
            page.items.length
              ? formatTable(page.items, TENANT_COLUMNS)
              : environment
                ? `no ${environment} tenants`
                : 'no tenants',
          );
          if (page.next_cursor) out(ctx, `more: --cursor ${page.next_cursor}`);
        }
        return 0;
      }
      case 'show': {
        const t = await api.get<Json>(`/v1/tenants/${encodeURIComponent(id ?? (await api.tenant()))}`);
        if (values.json) printJson(ctx, t);
        else out(ctx, show(t));
        return 0;
      }
      case 'set': {
        const target = id ?? (await api.tenant());
        const limits = limitsBody('tenants set', values);
        const body: UpdateTenantBody = {
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values['owner-email'] ? { owner_emails: values['owner-email'] } : {}),
          ...(limits ? { limits } : {}),
        };
        if (Object.keys(body).length === 0)
          throw usageError(`tenants set: nothing to change; give --name, --owner-email or a limit (see --help)`);
        const t = await api.patch<Json>(`/v1/tenants/${encodeURIComponent(target)}`, body);
        if (values.json) printJson(ctx, t);
        else out(ctx, show(t));
        return 0;
      }
      case 'usage': {
        const u = await api.get<Json>(`/v1/tenants/${encodeURIComponent(id ?? (await api.tenant()))}/usage`);
        if (values.json) printJson(ctx, u);
        else {
          const of = (n: unknown, max: unknown) => (max === null ? `${n} (no limit)` : `${n} of ${max}`);
          out(
            ctx,
            formatRecord([
              ['day (UTC)', u.day],
              ['events today', of(u.events_today, u.events_per_day) + (u.percent === null ? '' : ` (${u.percent} %)`)],
              ['rate', `${u.rate_per_s}/s over the last whole minute; ${u.events_this_minute} this minute`],
              ['endpoints', of(u.endpoints, u.max_endpoints)],
              ['limits', limitsLine(u.limits as Json)],
              ['resets', shortTime(u.resets_at)],
            ]),
          );
        }
        return 0;
      }
      case 'delete': {
        // No default from HOOKLINE_TENANT: deleting everything a tenant owns must be named explicitly.
        const target = requirePositional('tenants delete', 'tenant', id);
        await api.delete(`/v1/tenants/${encodeURIComponent(target)}`);
        if (values.json) printJson(ctx, { deleted: target });
        else out(ctx, `deleted tenant ${target}`);
        return 0;
      }
      default:
        throw usageError(
          sub === undefined
            ? `tenants: missing subcommand (create, list, show, set, usage, delete); see 'hookline tenants --help'`
            : `tenants: unknown subcommand '${sub}' (create, list, show, set, usage, delete)`,
        );
    }
  },
};

/** A tenant's limits on one line; a null one is the server's default (tenants show) or none (usage). */
function limitsLine(l: Json | undefined): string {
  if (!l) return '';
  const v = (x: unknown) => (x === null ? '-' : String(x));
  return `${v(l.events_per_s)}/s, ${v(l.events_per_day)}/day, ${v(l.max_endpoints)} endpoints, ${v(l.max_payload_bytes)} B payload`;
}
