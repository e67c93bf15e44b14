// `hookline endpoints add|list|show|pause|resume|rotate|secret|test|delete`: a tenant's webhook subscriptions.
import { InvalidDurationError, parseDuration } from '@hookline/core/config';
import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, requirePositional } from '../parse-args.ts';
import { formatRecord, formatTable } from '../table.ts';
import { attemptResponse, ENDPOINT_COLUMNS, type Json, type Page, shortTime } from '../views.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  policy: { type: 'string' },
  description: { type: 'string' },
  'event-types': { type: 'string' },
  scheme: { type: 'string' },
  timeout: { type: 'string' },
  'max-concurrency': { type: 'string' },
  'rate-limit': { type: 'string' },
  paused: { type: 'boolean' },
  ordering: { type: 'string' },
  'on-failure': { type: 'string' },
  filter: { type: 'string' },
  header: { type: 'string', multiple: true },
  'clear-headers': { type: 'boolean' },
  'catch-up': { type: 'boolean' },
  signing: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

const SUBS = 'add, list, show, set, limit, pause, resume, retry, rotate, secret, test, delete';

export const endpoints: Command = {
  name: 'endpoints',
  summary: 'add, list, show, pause, resume, retry, rotate, test and delete endpoints',
  help: `Usage:
  hookline endpoints add <https://receiver/url> [--policy <name>] [--description <text>]
                         [--event-types <a,b.*>] [--scheme hookline|standard] [--timeout <5s>]
                         [--max-concurrency <n>] [--paused] [--ordering none|key]
                         [--on-failure continue|block] [--signing hmac|ed25519] [--rate-limit <n per second>]
                         [--filter <json>] [--header 'Name: value']…
  hookline endpoints list [--limit <n>] [--cursor <c>]
  hookline endpoints show <endpoint>
  hookline endpoints set <endpoint> [--filter <json>|none] [--header 'Name: value']… [--clear-headers]
                         [--rate-limit <n>|off] [--max-concurrency <n>]
  hookline endpoints limit <endpoint> [--rate-limit <n>|off] [--max-concurrency <n>]
  hookline endpoints pause <endpoint>      (new events are recorded as skipped)
  hookline endpoints resume <endpoint> [--catch-up]
                                           (reactivate; clears degradation; --catch-up replays what
                                            failed or was skipped since the pause began)
  hookline endpoints retry <endpoint>      (every pending delivery due now, paced by the endpoint's
                                            limits; of an ordering key, only its head)
  hookline endpoints rotate <endpoint>     (new signing secret; old ones stay live for the overlap)
  hookline endpoints secret <endpoint>     (the live signing secrets, or ed25519 public keys)
  hookline endpoints test <endpoint>       (one test delivery now, event type hookline.test)
  hookline endpoints delete <endpoint>

  The receiver's URL is positional (--url is the API's). Policies: payments, standard (default),
  brief, strict, or one defined in the server's config. --ordering key attempts deliveries of one
  event ordering key one at a time, in accept order; --on-failure block holds a key after a failed
  delivery until it is replayed successfully or dismissed ('hookline deliveries dismiss').
  --filter is a payload filter on the envelope (docs/filters.md), e.g.
  '{"path":"data.status","in":["paid","settled"]}'; 'none' clears it. --header may repeat; 'set'
  with --header replaces the endpoint's whole set, --clear-headers removes them all.
  --signing ed25519 signs with a key pair Hookline keeps (v1a, standard scheme, the default scheme
  then): receivers verify with the whpk_ public key and hold no shared secret. Fixed at creation.
  --rate-limit caps sends to the endpoint at n a second across every worker (1-10000; 'off' clears
  it); deliveries over it wait without spending attempts. 'show' also prints the effective
  concurrency Hookline learned from the endpoint's 429/503 answers and latency.

${CLIENT_OPTIONS_HELP}

Examples:
  hookline endpoints add https://example.com/hooks --tenant ten_01… --policy payments
  hookline endpoints set ep_01… --filter '{"all":[{"path":"data.amount","gte":100}]}' --header 'X-Tenant: acme'
  hookline endpoints resume ep_01… --catch-up
  hookline endpoints test ep_01…`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('endpoints', args, OPTIONS, 2);
    const [sub, id] = positionals;
    const api = clientFrom(ctx, values);
    const path = (suffix = '') =>
      api.tenantPath(
        `/endpoints/${encodeURIComponent(requirePositional(`endpoints ${sub}`, 'endpoint', id))}${suffix}`,
      );
    const show = (e: Json) =>
      formatRecord([
        ['id', e.id],
        ['url', e.url],
        ['status', e.pause_reason ? `${e.status as string} (${e.pause_reason as string})` : e.status],
        ['policy', e.policy],
        ['scheme', e.scheme],
        ['event types', (e.event_types as string[]).length ? (e.event_types as string[]).join(', ') : '* (all)'],
        ['description', e.description],
        ['timeout', e.timeout_ms === null ? 'policy default' : `${e.timeout_ms as number} ms`],
        ['max concurrency', e.max_concurrency],
        ['effective concurrency', e.effective_concurrency ?? e.max_concurrency],
        ['rate limit', e.rate_limit_per_s == null ? 'none' : `${e.rate_limit_per_s as number}/s`],
        ['signing', e.signing ?? 'hmac'],
        ['payload filter', e.payload_filter ? JSON.stringify(e.payload_filter) : 'none (every event)'],
        ['headers', Object.keys((e.headers as Json | undefined) ?? {}).join(', ') || 'none'],
        ['paused since', shortTime(e.paused_at)],
        ['ordering', e.ordering === 'key' ? `key (on failure: ${e.on_failure as string})` : (e.ordering ?? 'none')],
        ['failing since', shortTime(e.failing_since)],
        ['failed events in a row', e.consecutive_failed_events],
        ['last success', shortTime(e.last_success_at)],
        ['created', shortTime(e.created_at)],
      ]);
    const print = (value: Json, human: string) => (values.json ? printJson(ctx, value) : out(ctx, human));

    switch (sub) {
      case 'add': {
        const body: Json = { url: requirePositional('endpoints add', 'receiver url', id) };
        if (values.policy) body.policy = values.policy;
        if (values.description !== undefined) body.description = values.description;
        if (values['event-types'])
          body.event_types = values['event-types']
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
        if (values.scheme) {
          if (values.scheme !== 'hookline' && values.scheme !== 'standard')
            throw usageError(`endpoints add: --scheme must be hookline or standard, got '${values.scheme}'`);
          body.scheme = values.scheme;
        }
        if (values.timeout) body.timeout_ms = durationMs('endpoints add', 'timeout', values.timeout);
        if (values['max-concurrency'])
          body.max_concurrency = intValue('endpoints add', 'max-concurrency', values['max-concurrency'], {
            min: 1,
            max: 1000,
          });
        if (values['rate-limit'] !== undefined)
          body.rate_limit_per_s = rateLimit('endpoints add', values['rate-limit']);
        if (values.paused) body.status = 'paused';
        if (values.ordering !== undefined) {
          if (values.ordering !== 'none' && values.ordering !== 'key')
            throw usageError(`endpoints add: --ordering must be none or key, got '${values.ordering}'`);
          body.ordering = values.ordering;
        }
        if (values['on-failure'] !== undefined) {
          if (values['on-failure'] !== 'continue' && values['on-failure'] !== 'block')
            throw usageError(`endpoints add: --on-failure must be continue or block, got '${values['on-failure']}'`);
          body.on_failure = values['on-failure'];
        }
        Object.assign(body, optionsBody('endpoints add', values));
        if (values.signing !== undefined) {
          if (values.signing !== 'hmac' && values.signing !== 'ed25519')
            throw usageError(`endpoints add: --signing must be hmac or ed25519, got '${values.signing}'`);
          body.signing = values.signing;
        }
        const created = await api.post<Json>(api.tenantPath('/endpoints'), body);
        const ep = (created.endpoint as Json | undefined) ?? created;
        const secret =
          typeof created.secret === 'string'
            ? created.secret
            : ((created.secret as Json | undefined)?.secret as string | undefined);
        const publicKey = typeof created.public_key === 'string' ? created.public_key : undefined;
        const also = `   (also: hookline endpoints secret ${ep.id as string})`;
        print(
          created,
          show(ep) +
            (secret ? `\nsigning secret:         ${secret}${also}` : '') +
            (publicKey ? `\npublic key:             ${publicKey}${also}` : ''),
        );
        return 0;
      }
      case 'list': {
        const page = await api.get<Page>(api.tenantPath('/endpoints'), {
          limit: values.limit && intValue('endpoints list', 'limit', values.limit, { min: 1, max: MAX_PAGE_LIMIT }),
          cursor: values.cursor,
        });
        if (values.json) printJson(ctx, page);
        else {
          out(ctx, page.items.length ? formatTable(page.items, ENDPOINT_COLUMNS) : 'no endpoints');
          if (page.next_cursor) out(ctx, `more: --cursor ${page.next_cursor}`);
        }
        return 0;
      }
      case 'show': {
        const e = await api.get<Json>(path());
        print(e, show(e));
        return 0;
      }
      case 'set':
      case 'limit': {
        const command = `endpoints ${sub}`;
        const body = sub === 'set' ? optionsBody(command, values) : {};
        if (values['rate-limit'] !== undefined) body.rate_limit_per_s = rateLimit(command, values['rate-limit']);
        if (values['max-concurrency'])
          body.max_concurrency = intValue(command, 'max-concurrency', values['max-concurrency'], { min: 1, max: 1000 });
        if (Object.keys(body).length === 0) {
          throw usageError(
            sub === 'set'
              ? 'endpoints set: give --filter, --header, --clear-headers, --rate-limit or --max-concurrency'
              : 'endpoints limit: give --rate-limit <n>|off and/or --max-concurrency <n>',
          );
        }
        const e = await api.patch<Json>(path(), body);
        print(e, show(e));
        return 0;
      }
      case 'pause':
      case 'resume': {
        if (values['catch-up'] && sub === 'pause') throw usageError('endpoints pause: --catch-up goes with resume');
        const e = await api.patch<Json>(path(), {
          status: sub === 'pause' ? 'paused' : 'active',
          ...(values['catch-up'] ? { catch_up: true } : {}),
        });
        const c = e.catch_up as Json | undefined;
        print(
          e,
          sub === 'pause'
            ? `paused ${e.id as string}: new events are recorded as skipped; 'hookline endpoints resume ${e.id as string} --catch-up' reactivates it and replays what it missed`
            : c
              ? `resumed ${e.id as string} (${e.status as string}); catch-up replay ${c.replay_id as string} selected ${(c.replay as Json).selected as number} deliveries`
              : `resumed ${e.id as string} (${e.status as string}); replay what it missed with 'hookline replay --endpoint ${e.id as string} --include-skipped'`,
        );
        return 0;
      }
      case 'retry': {
        const r = await api.post<Json>(path('/retry'));
        print(
          r,
          `${r.moved as number} pending ${r.moved === 1 ? 'delivery' : 'deliveries'} of ${id as string} due now`,
        );
        return 0;
      }
      case 'rotate': {
        const s = await api.post<Json>(path('/secret/rotate'));
        print(
          s,
          `new ${s.public_key ? 'public key' : 'secret'} ${s.kid as string}: ${(s.public_key ?? s.secret) as string}\n` +
            secretsTable(s),
        );
        return 0;
      }
      case 'secret': {
        const s = await api.get<Json>(path('/secret'));
        print(s, secretsTable(s));
        return 0;
      }
      case 'test': {
        const r = await api.post<Json>(path('/test'));
        const a = (r.attempt as Json | undefined) ?? r;
        print(
          r,
          `test delivery: ${attemptResponse(a)} → ${a.outcome as string} in ${a.duration_ms as number} ms${a.error_message ? ` (${a.error_message as string})` : ''}`,
        );
        return a.outcome === 'success' ? 0 : 1;
      }
      case 'delete': {
        await api.delete(path());
        print({ deleted: id }, `deleted endpoint ${id as string}`);
        return 0;
      }
      default:
        throw usageError(
          sub === undefined
            ? `endpoints: missing subcommand (${SUBS}); see 'hookline endpoints --help'`
            : `endpoints: unknown subcommand '${sub}' (${SUBS})`,
        );
    }
  },
};

function secretsTable(s: Json): string {
  const list = (s.secrets as Json[] | undefined) ?? [s];
  return formatTable(list, [
    { header: 'kid', value: (x) => x.kid as string },
    // An ed25519 key shows its public key: its secret key never leaves the server.
    {
      header: list.some((x) => x.public_key) ? 'public key' : 'secret',
      value: (x) => (x.public_key ?? x.secret) as string,
    },
    { header: 'created', value: (x) => shortTime(x.created_at) },
    { header: 'retires', value: (x) => (x.expires_at ? shortTime(x.expires_at) : 'current') },
  ]);
}

/** --filter, --header and --clear-headers as API fields; the server validates them (invalid_filter, invalid_header). */
function optionsBody(command: string, values: { filter?: string; header?: string[]; 'clear-headers'?: boolean }): Json {
  const body: Json = {};
  if (values.filter !== undefined) {
    if (values.filter === 'none') body.payload_filter = null;
    else {
      try {
        body.payload_filter = JSON.parse(values.filter);
      } catch {
        throw usageError(`${command}: --filter must be JSON (see docs/filters.md) or 'none', got '${values.filter}'`);
      }
    }
  }
  if (values['clear-headers'] && values.header?.length)
    throw usageError(`${command}: --clear-headers and --header do not go together`);
  if (values['clear-headers']) body.headers = {};
  if (values.header?.length) {
    const headers: Record<string, string> = {};
    for (const h of values.header) {
      const cut = h.indexOf(':');
      if (cut <= 0) throw usageError(`${command}: --header must be 'Name: value', got '${h}'`);
      headers[h.slice(0, cut).trim()] = h.slice(cut + 1).trim();
    }
    body.headers = headers;
  }
  return body;
}

/** docs/rules.md#rate-limit: 1 … 10,000 sends a second, or `off` (null: no limit). */
function rateLimit(command: string, raw: string): number | null {
  if (raw === 'off' || raw === 'none') return null;
  return intValue(command, 'rate-limit', raw, { min: 1, max: 10_000 });
}

function durationMs(command: string, name: string, raw: string): number {
  try {
    return parseDuration(raw);
  } catch (err) {
    if (err instanceof InvalidDurationError) throw usageError(`${command}: --${name}: ${err.message}`);
    throw err;
  }
}
