// `hookline tenants create|list|show|delete`: the provider's customers (admin token for create, list, delete).

import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, requirePositional, requireValue } from '../parse-args.ts';
import { formatRecord, formatTable } from '../table.ts';
import { type Json, type Page, shortTime, TENANT_COLUMNS } from '../views.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  name: { type: 'string' },
  environment: { type: 'string' },
  'owner-email': { type: 'string', multiple: true },
  'no-email': { type: 'boolean' },
  'api-key': { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

/** `--environment`: test or live (docs/rules.md#environments); absent stays absent (the server's default, or no filter). */
function environmentValue(command: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'test' && raw !== 'live')
    throw usageError(`${command}: --environment must be test or live, got '${raw}'`);
  return raw;
}

export const tenants: Command = {
  name: 'tenants',
  summary: 'create, list, show and delete tenants',
  help: `Usage:
  hookline tenants create --name <name> [--environment test|live] [--owner-email <email>]… [--no-email] [--api-key]
  hookline tenants list [--environment test|live] [--limit <n>] [--cursor <c>]
  hookline tenants show [<tenant>]        (default: --tenant / HOOKLINE_TENANT)
  hookline tenants delete <tenant>        (deletes everything the tenant owns)

  --environment  test or live (default live), fixed at creation: a test tenant's keys are hk_test_…;
                 with list, only that environment's tenants
  --api-key      also create an API key for the new tenant and print it (shown once)

${CLIENT_OPTIONS_HELP}

Examples:
  hookline tenants create --name "Acme" --owner-email ops@acme.test --api-key
  hookline tenants create --name "Acme (staging)" --environment test --api-key
  hookline tenants list --environment test
  hookline tenants list --json`,

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
        ['created', shortTime(t.created_at)],
      ]);
    switch (sub) {
      case 'create': {
        const name = requireValue('tenants create', 'name', values.name);
        const environment = environmentValue('tenants create', values.environment);
        const t = await api.post<Json>('/v1/tenants', {
          name,
          ...(environment ? { environment } : {}),
          ...(values['owner-email'] ? { owner_emails: values['owner-email'] } : {}),
          ...(values['no-email'] ? { notify_email: false } : {}),
        });
        const key = values['api-key']
          ? await api.post<Json>(`/v1/tenants/${encodeURIComponent(t.id as string)}/api-keys`, {
              name: 'created by hookline tenants create',
            })
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
            ? `tenants: missing subcommand (create, list, show, delete); see 'hookline tenants --help'`
            : `tenants: unknown subcommand '${sub}' (create, list, show, delete)`,
        );
    }
  },
};
