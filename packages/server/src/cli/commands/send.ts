// `hookline send`: accept one event for the tenant; it fans out to every subscribed endpoint.
import { readFileSync } from 'node:fs';
import { out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { jsonValue, parseCommandArgs, requireValue } from '../parse-args.ts';
import type { SendEventBody } from '../request-bodies.ts';
import { formatTable } from '../table.ts';
import type { Json } from '../views.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  type: { type: 'string' },
  data: { type: 'string' },
  'event-id': { type: 'string' },
  'occurred-at': { type: 'string' },
  version: { type: 'string' },
  'ordering-key': { type: 'string' },
} as const;

export const send: Command = {
  name: 'send',
  summary: 'send an event',
  help: `Usage:
  hookline send --type <type> --data <json | @file.json> [--event-id <id>] [--occurred-at <iso>] [--version <v>]
                [--ordering-key <key>]

Accepts the event durably (202) and prints its deliveries. Sending the same --event-id with the same
body again is harmless; with a different body it is refused (exit 4). --ordering-key (at most 256 bytes,
e.g. a payment id) orders the event among its key's on endpoints added with --ordering key.

${CLIENT_OPTIONS_HELP}

Example:
  hookline send --type payment.status_changed --data '{"id":"pay_1","status":"paid"}' --event-id pay_1-paid`,

  async run(args, ctx) {
    const { values } = parseCommandArgs('send', args, OPTIONS);
    const type = requireValue('send', 'type', values.type);
    const raw = requireValue('send', 'data', values.data);
    const data = raw.startsWith('@')
      ? jsonValue('send', 'data', readData(raw.slice(1)))
      : jsonValue('send', 'data', raw);
    const api = clientFrom(ctx, 'send', values);
    const body: SendEventBody = { type, data };
    if (values['event-id']) body.event_id = values['event-id'];
    if (values['occurred-at']) body.occurred_at = values['occurred-at'];
    if (values.version) body.version = values.version;
    if (values['ordering-key'] !== undefined) body.ordering_key = values['ordering-key'];
    const res = await api.post<Json>(await api.tenantPath('/events'), body);
    if (values.json) {
      printJson(ctx, res);
      return 0;
    }
    const event = (res.event as Json | undefined) ?? res;
    const deliveries = (res.deliveries as Json[] | undefined) ?? [];
    out(
      ctx,
      `accepted event ${event.event_id as string} (${event.type as string})${res.existing || res.duplicate ? ' — already accepted before, nothing new sent' : ''}`,
    );
    if (deliveries.length === 0) out(ctx, 'no endpoint is subscribed to this type: no deliveries');
    else
      out(
        ctx,
        formatTable(deliveries, [
          { header: 'delivery', value: (d) => d.id as string },
          { header: 'endpoint', value: (d) => d.endpoint_id as string },
          { header: 'status', value: (d) => d.status as string },
        ]),
      );
    return 0;
  },
};

function readData(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw usageError(
      `send: cannot read --data file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
}
