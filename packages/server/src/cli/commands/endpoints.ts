// `hookline endpoints add|list|show|set|limit|pause|resume|retry|rotate|secret|test|delete`: a tenant's webhook subscriptions.
import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, requirePositional } from '../parse-args.ts';
import type { CreateEndpointBody } from '../request-bodies.ts';
import { formatRecord, formatTable } from '../table.ts';
import { attemptResponse, ENDPOINT_COLUMNS, type Json, type Page, shortTime } from '../views.ts';
import {
  ADD_FLAGS,
  refuseApiAsReceiver,
  refuseFlag,
  SET_FLAGS,
  SETTING_OPTIONS,
  settingsBody,
} from './endpoint-settings.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  ...SETTING_OPTIONS,
  limit: { type: 'string' },
  cursor: { type: 'string' },
} as const;

/** The flags each subcommand takes beside the connection ones; any other is a usage error, never ignored. */
const SUB_FLAGS: Readonly<Record<string, readonly string[]>> = {
  add: ADD_FLAGS,
  list: ['limit', 'cursor'],
  set: SET_FLAGS,
  limit: ['rate-limit', 'max-concurrency'],
  resume: ['catch-up'],
};
const CONNECTION_FLAGS = ['api-url', 'token', 'tenant', 'json'];

const SUBS = 'add, list, show, set, limit, pause, resume, retry, rotate, secret, test, delete';

export const endpoints: Command = {
  name: 'endpoints',
  summary: 'add, list, show, set, limit, pause, resume, retry, rotate, secret, test and delete endpoints',
  help: `Usage:
  hookline endpoints add <https://receiver/url> [--policy <name>] [--description <text>]
                         [--event-types <a,b.*>] [--scheme hookline|standard] [--timeout <5s>]
                         [--max-concurrency <n>] [--paused] [--ordering none|key]
                         [--on-failure continue|block] [--signing hmac|ed25519] [--rate-limit <n per second>]
                         [--filter <json>] [--header 'Name: value']… [egress flags]
  hookline endpoints list [--limit <n>] [--cursor <c>]
  hookline endpoints show <endpoint>
  hookline endpoints set <endpoint> [--url <https://receiver/url>] [--description <text>]
                         [--event-types <a,b.*>|''] [--policy <name>] [--scheme hookline|standard]
                         [--timeout <5s>|policy] [--max-concurrency <n>|policy] [--rate-limit <n>|off]
                         [--status active|paused [--catch-up]] [--ordering none|key]
                         [--on-failure continue|block] [--filter <json>|none]
                         [--header 'Name: value']… [--clear-headers] [egress flags]
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

  'set' changes any field the API's PATCH takes; only the signing (hmac or ed25519) is fixed at
  creation. A flag a subcommand does not take is an error (exit 2), never ignored. The receiver's
  URL is positional for 'add' and --url for 'set'; the API's address is --api-url (HOOKLINE_URL).
  A URL change clears degradation. --event-types '' subscribes to every type; --timeout policy and
  --max-concurrency policy go back to the policy's. Policies: payments, standard (default), brief,
  strict, or one defined in the server's config. --ordering key attempts deliveries of one event
  ordering key one at a time, in accept order; --on-failure block holds a key after a failed
  delivery until it is replayed successfully or dismissed ('hookline deliveries dismiss').
  --filter is a payload filter on the envelope (docs/filters.md), e.g.
  '{"path":"data.status","in":["paid","settled"]}'; 'none' clears it. --header may repeat; 'set'
  with --header replaces the endpoint's whole set, --clear-headers removes them all.
  --signing ed25519 signs with a key pair Hookline keeps (v1a, standard scheme, the default scheme
  then): receivers verify with the whpk_ public key and hold no shared secret. Fixed at creation.
  --rate-limit caps sends to the endpoint at n a second across every worker (1-10000; 'off' clears
  it); deliveries over it wait without spending attempts. 'show' also prints the effective
  concurrency Hookline learned from the endpoint's 429/503 answers and latency.
  Egress flags (docs/rules.md#egress-proxy): --proxy <name>|none|default picks a configured proxy,
  direct, or the configured default; --client-cert <cert.pem> --client-key <key.pem> sets the client
  certificate presented on every attempt (--client-cert none removes it; the key is never shown
  again); --oauth2-token-url <url> --oauth2-client-id <id> --oauth2-client-secret <secret>
  [--oauth2-scope <s>] [--oauth2-audience <a>] sends a Bearer token from that token endpoint
  (--oauth2-token-url none removes it; without --oauth2-client-secret an edit keeps the secret).

${CLIENT_OPTIONS_HELP}

Examples:
  hookline endpoints add https://example.com/hooks --tenant ten_01… --policy payments
  hookline endpoints set ep_01… --filter '{"all":[{"path":"data.amount","gte":100}]}' --header 'X-Tenant: acme'
  hookline endpoints set ep_01… --url https://example.com/hooks/v2 --policy payments --timeout 10s
  hookline endpoints resume ep_01… --catch-up
  hookline endpoints test ep_01…`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('endpoints', args, OPTIONS, 2);
    const [sub, id] = positionals;
    const command = `endpoints ${sub ?? ''}`.trim();
    const allowed = sub === undefined ? undefined : (SUB_FLAGS[sub] ?? []);
    for (const [flag, value] of Object.entries(values)) {
      if (value === undefined || allowed === undefined || CONNECTION_FLAGS.includes(flag) || allowed.includes(flag))
        continue;
      // --url elsewhere is an old script's API address: clientFrom says what to use instead.
      if (flag === 'url' && sub !== 'add') continue;
      if (sub === 'add' || sub === 'set' || sub === 'limit') refuseFlag(command, sub, flag);
      throw usageError(`${command}: --${flag} does not go with '${sub}'; see 'hookline endpoints --help'`);
    }
    // `set --url` is the receiver's URL; everywhere else clientFrom refuses --url with advice.
    const api = clientFrom(ctx, command, sub === 'set' ? { ...values, url: undefined } : values);
    const path = async (suffix = '') =>
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
        const body: CreateEndpointBody = {
          url: requirePositional('endpoints add', 'receiver url', id),
          ...settingsBody('endpoints add', values),
        };
        const created = await api.post<Json>(await api.tenantPath('/endpoints'), body);
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
        const page = await api.get<Page>(await api.tenantPath('/endpoints'), {
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
        const e = await api.get<Json>(await path());
        print(e, show(e));
        return 0;
      }
      case 'set':
      case 'limit': {
        const body = settingsBody(command, values);
        if (Object.keys(body).length === 0) {
          throw usageError(
            sub === 'set'
              ? `endpoints set: give at least one setting (${SET_FLAGS.map((f) => `--${f}`).join(', ')})`
              : 'endpoints limit: give --rate-limit <n>|off and/or --max-concurrency <n>',
          );
        }
        if (typeof body.url === 'string') refuseApiAsReceiver(command, body.url, api.baseUrl);
        const e = await api.patch<Json>(await path(), body);
        const c = e.catch_up as Json | undefined;
        print(
          e,
          show(e) +
            (c
              ? `\ncatch-up replay ${c.replay_id as string} selected ${(c.replay as Json).selected as number} deliveries`
              : ''),
        );
        return 0;
      }
      case 'pause':
      case 'resume': {
        if (values['catch-up'] && sub === 'pause') throw usageError('endpoints pause: --catch-up goes with resume');
        const e = await api.patch<Json>(await path(), {
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
        const r = await api.post<Json>(await path('/retry'));
        print(
          r,
          `${r.moved as number} pending ${r.moved === 1 ? 'delivery' : 'deliveries'} of ${id as string} due now`,
        );
        return 0;
      }
      case 'rotate': {
        const s = await api.post<Json>(await path('/secret/rotate'));
        print(
          s,
          `new ${s.public_key ? 'public key' : 'secret'} ${s.kid as string}: ${(s.public_key ?? s.secret) as string}\n` +
            secretsTable(s),
        );
        return 0;
      }
      case 'secret': {
        const s = await api.get<Json>(await path('/secret'));
        print(s, secretsTable(s));
        return 0;
      }
      case 'test': {
        const r = await api.post<Json>(await path('/test'));
        const a = (r.attempt as Json | undefined) ?? r;
        print(
          r,
          `test delivery: ${attemptResponse(a)} → ${a.outcome as string} in ${a.duration_ms as number} ms${a.error_message ? ` (${a.error_message as string})` : ''}`,
        );
        return a.outcome === 'success' ? 0 : 1;
      }
      case 'delete': {
        await api.delete(await path());
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
