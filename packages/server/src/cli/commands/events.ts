// `hookline events list|export`: search a tenant's events (type, window, event_id prefix, payload filter) a page at a
// time, or export the whole selection as NDJSON to stdout or a file, resumable with --after (docs/api.md#event-search).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { MAX_PAGE_LIMIT } from '../../http/route.ts';
import type { ApiClient, Query } from '../api-client.ts';
import { type CliContext, note, out, printJson } from '../cli-context.ts';
import { CliError, EXIT, usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs, timeValue } from '../parse-args.ts';
import { formatTable } from '../table.ts';
import { type Json, type Page, shortTime } from '../views.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  type: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  prefix: { type: 'string' },
  filter: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  out: { type: 'string' },
  after: { type: 'string' },
} as const;

/** `endpoint:status` of each delivery, e.g. `ep_01…:failed(8)`. */
function deliveriesCell(e: Json): string {
  const list = (e.deliveries as Array<{ endpoint_id: string; status: string; attempts: number }> | undefined) ?? [];
  if (list.length === 0) return '-';
  return list.map((d) => `${d.endpoint_id}:${d.status}(${d.attempts})`).join(' ');
}

const EVENT_COLUMNS = [
  { header: 'id', value: (e: Json) => e.id as string },
  { header: 'event', value: (e: Json) => e.event_id as string, max: 32 },
  { header: 'type', value: (e: Json) => e.type as string, max: 32 },
  { header: 'created', value: (e: Json) => shortTime(e.created_at) },
  { header: 'deliveries', value: deliveriesCell, max: 80 },
];

function selection(command: string, values: Record<string, string | boolean | undefined>): Query {
  const now = Date.now();
  const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);
  const filter = str(values.filter);
  if (filter !== undefined) {
    try {
      JSON.parse(filter);
    } catch {
      throw usageError(
        `${command}: --filter must be a payload filter as JSON, e.g. '{"path":"data.status","equals":"paid"}'`,
      );
    }
  }
  const since = str(values.since);
  const until = str(values.until);
  return {
    type: str(values.type),
    since: since && timeValue(command, 'since', since, now),
    until: until && timeValue(command, 'until', until, now),
    event_id_prefix: str(values.prefix),
    filter,
  };
}

/** Writes a chunk and waits while the destination is full: an export holds at most a chunk in memory. */
async function write(stream: NodeJS.WritableStream | CliContext['stdout'], chunk: Buffer | string): Promise<void> {
  const ok = stream.write(chunk as string);
  if (ok === false && typeof (stream as NodeJS.EventEmitter).once === 'function')
    await once(stream as NodeJS.EventEmitter, 'drain');
}

async function exportTo(ctx: CliContext, api: ApiClient, query: Query, file: string | undefined): Promise<number> {
  const body = await api.stream(await api.tenantPath('/events'), query);
  // Resuming (--after) appends to the file the first run wrote; a fresh export replaces it.
  const dest = file === undefined ? ctx.stdout : createWriteStream(file, { flags: query.after ? 'a' : 'w' });
  let lines = 0;
  let lastId: string | undefined = typeof query.after === 'string' ? query.after : undefined;
  let partial = '';
  let failure: { code?: string; message?: string } | undefined;
  try {
    for await (const chunk of body) {
      // Track the last complete line's id (to resume from) and the error line a failed export ends with.
      const text = partial + chunk.toString('utf8');
      const cut = text.lastIndexOf('\n');
      partial = text.slice(cut + 1);
      const complete = cut < 0 ? '' : text.slice(0, cut + 1);
      let kept = '';
      for (const line of complete.split('\n')) {
        if (line === '') continue;
        const item = JSON.parse(line) as { id?: string; error?: { code?: string; message?: string } };
        if (item.error !== undefined && item.id === undefined) {
          failure = item.error;
          continue;
        }
        lines++;
        lastId = item.id;
        kept += `${line}\n`;
      }
      if (kept !== '') await write(dest, kept);
    }
  } finally {
    if (dest !== ctx.stdout) {
      const file = dest as NodeJS.WritableStream;
      file.end();
      await once(file, 'finish');
    }
  }
  if (failure !== undefined || partial !== '') {
    const why = failure
      ? `${failure.message ?? 'failed'} (${failure.code ?? 'error'})`
      : 'the connection ended mid-line';
    throw new CliError(
      EXIT.failure,
      `events export stopped after ${lines} events: ${why}${lastId ? `; resume with --after ${lastId}` : ''}`,
    );
  }
  note(ctx, `exported ${lines} events${lastId ? `; the last is ${lastId} (--after ${lastId} goes on from it)` : ''}`);
  return 0;
}

export const events: Command = {
  name: 'events',
  summary: 'search events (type, time, event_id prefix, payload filter) or export them as NDJSON',
  help: `Usage:
  hookline events list   [--type <type>] [--since <iso | 2h>] [--until <iso | 10m>] [--prefix <event_id prefix>]
                         [--filter <payload filter JSON>] [--limit <n>] [--cursor <c>]
  hookline events export [same selection] [--out <file>] [--after <evt_… id>]

  list prints a page, oldest first, each event with its deliveries (endpoint:status(attempts)); a page
  with --filter may be short, even empty, and still say 'more': only the last page has none.
  export writes every selected event as one JSON line, to stdout or --out; --after <id> goes on after
  that event (appending to --out), e.g. after an export that was cut off.
  --filter is the endpoints' payload filter language (docs/filters.md); without --since/--until it
  is refused on a tenant with more than 100,000 events (of the --type).

${CLIENT_OPTIONS_HELP}

Examples:
  hookline events list --type order.created --since 24h
  hookline events list --filter '{"path":"data.status","equals":"paid"}' --since 2026-01-05
  hookline events export --type order.created --out orders.ndjson
  hookline events export --type order.created --out orders.ndjson --after evt_01…`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('events', args, OPTIONS, 1);
    const [sub] = positionals;
    const api = clientFrom(ctx, 'events', values);
    if (sub === 'list') {
      if (values.out !== undefined || values.after !== undefined)
        throw usageError('events list: --out and --after are for events export');
      const page = await api.get<Page>(await api.tenantPath('/events'), {
        ...selection('events list', values),
        limit: values.limit && intValue('events list', 'limit', values.limit, { min: 1, max: MAX_PAGE_LIMIT }),
        cursor: values.cursor,
      });
      if (values.json) printJson(ctx, page);
      else {
        out(ctx, page.items.length ? formatTable(page.items, EVENT_COLUMNS) : 'no events on this page');
        if (page.next_cursor) out(ctx, `more: --cursor ${page.next_cursor}`);
      }
      return 0;
    }
    if (sub === 'export') {
      if (values.limit !== undefined || values.cursor !== undefined)
        throw usageError('events export: it writes the whole selection; resume with --after <id>, not --cursor');
      return exportTo(ctx, api, { ...selection('events export', values), after: values.after }, values.out);
    }
    throw usageError(
      sub === undefined
        ? `events: missing subcommand (list, export); see 'hookline events --help'`
        : `events: unknown subcommand '${sub}' (list, export)`,
    );
  },
};
