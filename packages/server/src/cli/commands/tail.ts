// `hookline tail`: follows delivery attempts live by polling the deliveries list; one line per new attempt.
import { TERMINAL_STATUSES } from '@hookline/core';
import { formatDuration, InvalidDurationError, parseDuration } from '@hookline/core/config';
import { note, out } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_HELP, clientFrom } from '../client-options.ts';
import type { Command } from '../command.ts';
import { intValue, parseCommandArgs } from '../parse-args.ts';
import { attemptResponse, type Json, type Page, shortTime } from '../views.ts';
import { pause } from '../wait.ts';

const OPTIONS = {
  ...CLIENT_OPTIONS,
  endpoint: { type: 'string' },
  interval: { type: 'string' },
  count: { type: 'string' },
} as const;

/** Deliveries remembered between polls; the oldest finished ones are forgotten first, so memory stays bounded. */
const MAX_TRACKED = 5000;
/** Delivery details fetched per poll at most, so a burst cannot turn one poll into thousands of requests. */
const MAX_FETCH_PER_POLL = 50;
const PAGE = 100;
const TERMINAL = new Set<string>(TERMINAL_STATUSES);

export const tail: Command = {
  name: 'tail',
  summary: 'follow delivery attempts live',
  help: `Usage:
  hookline tail [--endpoint <id>] [--interval <1s>] [--count <n>] [--json]

Polls the tenant's deliveries (every second by default) and prints one line per new attempt:
time, delivery, event, attempt number and trigger, response, outcome, duration, and what comes next.
Stops on Ctrl-C, or after --count attempts. --json prints one JSON object per line.

${CLIENT_OPTIONS_HELP}

Example:
  hookline tail --tenant ten_01… --endpoint ep_01…`,

  async run(args, ctx) {
    const { values } = parseCommandArgs('tail', args, OPTIONS);
    const api = clientFrom(ctx, 'tail', values);
    const intervalMs = values.interval ? interval(values.interval) : 1000;
    const maxAttempts = values.count ? intValue('tail', 'count', values.count, { min: 1 }) : Number.POSITIVE_INFINITY;
    const base = await api.tenantPath('/deliveries');
    const filter = { endpoint_id: values.endpoint, limit: PAGE };
    // id → attempts already reported and whether the delivery had finished.
    const tracked = new Map<string, { count: number; terminal: boolean }>();
    let printed = 0;
    let first = true;

    for (;;) {
      // Newest deliveries catch first attempts; pending/delivering ones catch retries of older deliveries.
      const pages = await Promise.all([
        api.get<Page>(base, filter),
        api.get<Page>(base, { ...filter, status: 'pending' }),
        api.get<Page>(base, { ...filter, status: 'delivering' }),
      ]);
      const listed = new Map<string, Json>();
      for (const p of pages) for (const d of p.items) listed.set(d.id as string, d);

      const due: string[] = [];
      for (const [id, d] of listed) {
        const known = tracked.get(id);
        const count = Number(d.attempt_count ?? 0);
        if (first) remember(tracked, id, count, TERMINAL.has(d.status as string));
        else if (count > (known?.count ?? 0)) due.push(id);
      }
      // A delivery we saw unfinished that fell out of every list has finished meanwhile: fetch its last attempts.
      if (!first) for (const [id, t] of tracked) if (!t.terminal && !listed.has(id)) due.push(id);
      if (first) {
        // Said once the baseline is taken: every attempt from here on is printed (scripts and tests wait for it).
        note(
          ctx,
          `following attempts${values.endpoint ? ` of ${values.endpoint}` : ''} every ${formatDuration(intervalMs)}; Ctrl-C to stop`,
        );
        first = false;
      }

      const lines: Array<{ at: string; line: string }> = [];
      for (const id of due.slice(0, MAX_FETCH_PER_POLL)) {
        const d = await api.get<Json>(`${base}/${encodeURIComponent(id)}`).catch(() => null); // deleted meanwhile
        if (!d) {
          tracked.delete(id);
          continue;
        }
        const before = tracked.get(id)?.count ?? 0;
        const attempts = ((d.attempts as Json[] | undefined) ?? []).filter((a) => Number(a.n) > before);
        const lastN = attempts.reduce((m, a) => Math.max(m, Number(a.n)), before);
        for (const a of attempts) {
          const isLast = Number(a.n) === lastN;
          lines.push({
            at: String(a.started_at),
            line: values.json
              ? JSON.stringify({
                  ...a,
                  event_id: d.event_id,
                  event_type: d.event_type,
                  delivery_status: isLast ? d.status : undefined,
                  next_attempt_at: isLast ? d.next_attempt_at : undefined,
                })
              : attemptLine(d, a, isLast),
          });
        }
        remember(tracked, id, Math.max(lastN, Number(d.attempt_count ?? 0)), TERMINAL.has(d.status as string));
      }
      lines.sort((a, b) => a.at.localeCompare(b.at));
      for (const l of lines) {
        out(ctx, l.line);
        if (++printed >= maxAttempts) return 0;
      }
      if (!(await pause(ctx, intervalMs))) return 0;
    }
  },
};

function remember(
  tracked: Map<string, { count: number; terminal: boolean }>,
  id: string,
  count: number,
  terminal: boolean,
): void {
  tracked.delete(id); // re-insert: Map order is then "least recently seen first"
  tracked.set(id, { count, terminal });
  if (tracked.size <= MAX_TRACKED) return;
  for (const [k, v] of tracked) {
    if (tracked.size <= MAX_TRACKED) break;
    if (v.terminal) tracked.delete(k);
  }
  // Still over: unfinished ones must go too (their later attempts may be missed, memory may not grow).
  for (const k of tracked.keys()) {
    if (tracked.size <= MAX_TRACKED) break;
    tracked.delete(k);
  }
}

function attemptLine(d: Json, a: Json, isLast: boolean): string {
  let next = '';
  if (isLast) {
    if (d.status === 'pending' || d.status === 'held')
      next = `→ ${d.status as string}, next at ${shortTime(d.next_attempt_at)}`;
    else if (d.status === 'failed') next = `→ failed: ${(d.terminal_reason as string | null) ?? ''}`;
    else if (d.status === 'succeeded') next = '→ succeeded';
  }
  return [
    shortTime(a.started_at),
    d.id as string,
    `${d.event_id as string} ${d.event_type as string}`,
    `#${a.n as number} ${a.trigger as string}`,
    attemptResponse(a),
    a.outcome as string,
    `${Number(a.duration_ms ?? 0)}ms`,
    next,
  ]
    .join('  ')
    .trimEnd();
}

function interval(raw: string): number {
  try {
    const ms = parseDuration(raw);
    if (ms < 200) throw usageError('tail: --interval must be at least 200ms');
    return ms;
  } catch (err) {
    if (err instanceof InvalidDurationError) throw usageError(`tail: --interval: ${err.message}`);
    throw err;
  }
}
