// `hookline simulate`: the exact attempt timeline of a policy against a scripted receiver, or a whole scenario,
// computed by the real engine (store, dispatcher, policies) on a virtual clock.
import { randomInt } from 'node:crypto';
import { createHookline, formatDuration, isHooklineError, PolicyConfigError, PolicyRegistry } from '@hookline/core';
import {
  parseResponse,
  runScript,
  type ScriptedResponse,
  type ScriptResult,
  type SimAttempt,
  type SimTransition,
} from '@hookline/core/simulation';
import { type CliContext, out, printJson } from '../cli-context.ts';
import { usageError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { readJsonFile } from '../json-file.ts';
import { intValue, jsonValue, parseCommandArgs } from '../parse-args.ts';
import { runScenario, type ScenarioResult } from '../simulate/run-scenario.ts';
import { parseScenario } from '../simulate/scenario.ts';
import { formatTable } from '../table.ts';

const OPTIONS = {
  policy: { type: 'string' },
  type: { type: 'string' },
  data: { type: 'string' },
  'event-id': { type: 'string' },
  responses: { type: 'string' },
  seed: { type: 'string' },
  scenario: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const simulate: Command = {
  name: 'simulate',
  summary: 'print the exact attempt timeline of a policy against a scripted receiver',
  help: `Usage:
  hookline simulate --policy <name> --responses <list> [--type <type>] [--data <json>] [--seed <n>] [--json]
  hookline simulate --scenario <file.json> [--seed <n>] [--json]

Runs the real engine (store, dispatcher, policy code) against an in-process receiver on a virtual clock
and prints every attempt. Times are since the event was accepted. Nothing is sent over the network.

Options:
  --policy <name>      payments, standard (default), brief, strict, or one defined in --config
  --responses <list>   comma-separated answers: an HTTP status, timeout or reset; the last one repeats
                       (e.g. 500,500,404,timeout,200)
  --type <type>        event type (default simulate.test); decides money events for payments
  --data <json>        event data (default {}), e.g. '{"status":"paid"}'
  --event-id <id>      event id (default: generated)
  --seed <n>           seed for jitter; the same seed gives the same timeline (default: random, printed)
  --config <file>      a hookline.json whose "policies" define more policies (with --responses)
  --scenario <file>    many events and a receiver that changes over time, e.g.
                       {"policy":"payments","events":[{"at":"0s","count":100,"type":"payment.status_changed",
                        "data":{"status":"paid"}}],"receiver":[{"from":"0s","to":"2h","respond":"503"},
                        {"from":"2h","respond":"200"}]}
                       events: at, count, every (spacing), type, data; receiver rules: from, to (exclusive),
                       respond (status, timeout, reset, or a list cycled per request); uncovered times get 200;
                       actions: [{"at":"10m","do":"pause"|"reactivate"|"replay","include_skipped":false,"catch_up":false}];
                       "rate_limit_per_s": n and "max_concurrency": n set the endpoint's limits: the output
                       shows the pace (attempts/s, busiest second) and how 429/503 lowered the concurrency
  --json               machine-readable output

Examples:
  hookline simulate --policy payments --type payment.status_changed --data '{"status":"paid"}' \\
    --responses 500,500,404,timeout,200 --seed 42
  hookline simulate --scenario outage.json --json`,

  async run(args, ctx) {
    const { values } = parseCommandArgs('simulate', args, OPTIONS);
    const seedFlag =
      values.seed === undefined ? undefined : intValue('simulate', 'seed', values.seed, { min: 0, max: 2 ** 32 - 1 });
    if (values.scenario !== undefined) {
      for (const flag of ['responses', 'type', 'data', 'event-id', 'policy', 'config'] as const) {
        if (values[flag] !== undefined)
          throw usageError(`simulate: --${flag} does not go with --scenario; put it in the scenario file`);
      }
      const scenario = parseScenario(readJsonFile('simulate', values.scenario, 'scenario'), values.scenario);
      const result = await asUsage(runScenario(scenario, seedFlag ?? scenario.seed ?? randomSeed()));
      if (values.json) printJson(ctx, scenarioJson(result));
      else
        printScenario(
          ctx,
          result,
          scenario.events.reduce((n, e) => n + e.count, 0),
        );
      return 0;
    }

    if (values.responses === undefined)
      throw usageError(`simulate: --responses (or --scenario) is required; see 'hookline simulate --help'`);
    const responses = parseResponses(values.responses);
    const policies = values.config === undefined ? new PolicyRegistry() : policiesFromConfig(values.config);
    const seed = seedFlag ?? randomSeed();
    const run = {
      createEngine: createHookline,
      policy: values.policy ?? 'standard',
      type: values.type ?? 'simulate.test',
      data: values.data === undefined ? {} : jsonValue('simulate', 'data', values.data),
      ...(values['event-id'] ? { eventId: values['event-id'] } : {}),
      responses,
      seed,
      policies,
    };
    if (!policies.has(run.policy))
      throw usageError(`simulate: unknown policy '${run.policy}'; known: ${policies.names().join(', ')}`);
    const result = await asUsage(runScript(run));
    if (values.json) printJson(ctx, { ...scriptJson(result), policy: run.policy, seed });
    else printScript(ctx, result, { policy: run.policy, type: run.type, seed });
    return 0;
  },
};

/** The engine refused the simulation's setup (a HooklineError): one line, as a usage error. */
async function asUsage<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (err) {
    if (isHooklineError(err)) throw usageError(`simulate: ${err.message}`);
    throw err;
  }
}

function randomSeed(): number {
  return randomInt(0, 2 ** 31);
}

function parseResponses(raw: string): ScriptedResponse[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw usageError('simulate: --responses needs at least one response, e.g. 500,500,200');
  return items.map((item) => {
    const r = parseResponse(item);
    if (typeof r === 'string') throw usageError(`simulate: --responses: ${r}`);
    return r;
  });
}

function policiesFromConfig(path: string): PolicyRegistry {
  const json = readJsonFile('simulate', path, 'config') as { policies?: unknown } | null;
  try {
    return PolicyRegistry.fromConfig(json && typeof json === 'object' ? json.policies : undefined);
  } catch (err) {
    if (err instanceof PolicyConfigError) throw usageError(`simulate: ${path}: ${err.message}`);
    throw err;
  }
}

// ---- one scripted delivery

function scriptJson(r: ScriptResult) {
  return {
    attempts: r.attempts.map((a) => ({
      n: a.n,
      at_ms: a.atMs,
      ladder: a.ladder,
      response: a.response,
      outcome: a.outcome,
    })),
    final: { status: r.final.status, reason: r.final.reason, at_ms: r.final.atMs },
    // Why an attempt came later than its ladder step: the breaker opened and the delivery waited (no attempt spent).
    transitions: r.transitions.map(transitionJson),
    held: r.held.map((h) => ({ at_ms: h.atMs, until_ms: h.untilMs })),
  };
}

function transitionJson(t: SimTransition) {
  return {
    at_ms: t.atMs,
    kind: t.kind,
    scope: t.scope,
    subject: t.subject,
    from: t.from,
    to: t.to,
    ...(t.reason ? { reason: t.reason } : {}),
  };
}

function transitionText(t: SimTransition): string {
  return `${t.kind === 'breaker' ? `breaker (${t.scope})` : 'endpoint'} ${t.from} → ${t.to}${t.reason ? ` (${t.reason})` : ''}`;
}

function nextText(a: SimAttempt): string {
  if (a.next.status === 'pending')
    return `retry at ${formatDuration(a.next.atMs)} (+${formatDuration(a.next.atMs - a.atMs - a.durationMs)}, ${a.next.ladder})`;
  return a.next.status === 'succeeded' ? 'delivered' : 'failed';
}

function printScript(ctx: CliContext, r: ScriptResult, info: { policy: string; type: string; seed: number }): void {
  out(ctx, `policy ${info.policy} · event ${info.type}${r.isMoney ? ' (money event)' : ''} · seed ${info.seed}`);
  out(ctx);
  // Attempts with breaker/health transitions and holds between them, in time order. On a tie a transition is
  // listed after the attempt that caused it, except a probe starting, which is why the attempt happens.
  type Row = { at: number; rank: number; seq: number; attempt?: SimAttempt; text?: string };
  const rows: Row[] = [
    ...r.attempts.map((a) => ({ at: a.atMs, rank: 1, seq: a.seq, attempt: a })),
    ...r.transitions.map((t) => ({
      at: t.atMs,
      rank: t.to === 'probing' ? 0 : 2,
      seq: t.seq,
      text: transitionText(t),
    })),
    ...r.held.map((h) => ({
      at: h.atMs,
      rank: 2,
      seq: h.seq,
      text: `held until ${formatDuration(h.untilMs)}: breaker open, no attempt spent`,
    })),
  ];
  rows.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  out(
    ctx,
    formatTable(rows, [
      { header: 'n', value: (x) => x.attempt?.n ?? '·', align: 'right' },
      { header: 'at', value: (x) => formatDuration(x.at), align: 'right' },
      { header: 'ladder', value: (x) => x.attempt?.ladder ?? '' },
      { header: 'response', value: (x) => x.attempt?.response ?? '' },
      { header: 'outcome', value: (x) => x.attempt?.outcome ?? '' },
      { header: 'next', value: (x) => (x.attempt ? nextText(x.attempt) : x.text) },
    ]),
  );
  out(ctx);
  const n = r.attempts.length;
  const tail = r.final.reason ? `: ${r.final.reason}` : '';
  out(ctx, `${r.final.status} at ${formatDuration(r.final.atMs)} after ${n} attempt${n === 1 ? '' : 's'}${tail}`);
}

// ---- scenario

function stats(values: number[]): { min: number; median: number; max: number; total: number } {
  if (values.length === 0) return { min: 0, median: 0, max: 0, total: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0],
    median: sorted[Math.floor((sorted.length - 1) / 2)],
    max: sorted[sorted.length - 1],
    total: sorted.reduce((s, v) => s + v, 0),
  };
}

function summarize(r: ScenarioResult) {
  const delivered = r.deliveries.filter((d) => d.status === 'succeeded');
  const failed = r.deliveries.filter((d) => d.status === 'failed');
  const times = delivered.map((d) => d.deliveredAtMs ?? 0);
  return {
    deliveries: r.deliveries.length,
    delivered: delivered.length,
    failed: failed.length,
    other: r.deliveries.length - delivered.length - failed.length,
    delivered_at_ms: delivered.length
      ? (({ min, median, max }) => ({ first: min, median, last: max }))(stats(times))
      : null,
    attempts: stats(r.deliveries.map((d) => d.attempts)),
    holds: r.holds,
    end_ms: r.endMs,
    pacing: {
      rate_limit_per_s: r.pacing.limitPerS,
      attempts_per_s: r.pacing.perS,
      busiest_second: r.pacing.busiestSecond,
    },
    concurrency: {
      max: r.concurrency.max,
      changes: r.concurrency.changes.map((c) => ({ at_ms: c.atMs, effective: c.effective })),
    },
  };
}

function scenarioJson(r: ScenarioResult) {
  return {
    policy: r.policy,
    seed: r.seed,
    attempts: r.attempts.map((a) => ({
      event_id: a.eventId,
      n: a.n,
      at_ms: a.atMs,
      ladder: a.ladder,
      trigger: a.trigger,
      response: a.response,
      outcome: a.outcome,
    })),
    transitions: r.transitions.map(transitionJson),
    deliveries: r.deliveries.map((d) => ({
      event_id: d.eventId,
      delivery_id: d.deliveryId,
      accepted_at_ms: d.acceptedAtMs,
      status: d.status,
      attempts: d.attempts,
      delivered_at_ms: d.deliveredAtMs,
      reason: d.reason,
      ...(d.orderingKey !== null ? { ordering_key: d.orderingKey, ordering_seq: d.orderingSeq } : {}),
    })),
    ...(r.order.length
      ? { order: r.order.map((o) => ({ ordering_key: o.key, delivered: o.delivered, in_order: o.inOrder })) }
      : {}),
    actions: r.actions.map((a) => ({ at_ms: a.atMs, do: a.do, error: a.error, replay: a.replay })),
    endpoint: { status: r.endpoint.status, pause_reason: r.endpoint.pauseReason },
    summary: summarize(r),
  };
}

function printScenario(ctx: CliContext, r: ScenarioResult, events: number): void {
  const s = summarize(r);
  const at = (ms: number) => formatDuration(ms);
  out(
    ctx,
    `policy ${r.policy} · ${events} events · ${s.deliveries} deliveries · seed ${r.seed} · ended at ${at(r.endMs)}`,
  );
  out(ctx);
  const d = s.delivered_at_ms;
  out(
    ctx,
    `delivered  ${s.delivered} of ${s.deliveries}${d ? ` (first at ${at(d.first)}, median ${at(d.median)}, last at ${at(d.last)})` : ''}`,
  );
  out(ctx, `failed     ${s.failed}`);
  const reasons = new Map<string, number>();
  for (const x of r.deliveries)
    if (x.status === 'failed') reasons.set(x.reason ?? '?', (reasons.get(x.reason ?? '?') ?? 0) + 1);
  for (const [reason, n] of reasons) out(ctx, `           ${n} × ${reason}`);
  if (s.other)
    out(
      ctx,
      `other      ${s.other} (${[...new Set(r.deliveries.filter((x) => x.status !== 'succeeded' && x.status !== 'failed').map((x) => x.status))].join(', ')})`,
    );
  out(
    ctx,
    `attempts   ${s.attempts.total} in all; per delivery min ${s.attempts.min} / median ${s.attempts.median} / max ${s.attempts.max}`,
  );
  out(ctx, `held       ${s.holds} time${s.holds === 1 ? '' : 's'} on an open breaker (no attempt spent)`);
  out(ctx, `endpoint   ${r.endpoint.status}${r.endpoint.pauseReason ? ` (${r.endpoint.pauseReason})` : ''} at the end`);
  if (r.pacing.limitPerS !== null)
    out(
      ctx,
      `pace       ${r.pacing.perS} attempts/s, busiest second ${r.pacing.busiestSecond} (limit ${r.pacing.limitPerS}/s; waiting spends no attempt)`,
    );
  const ch = r.concurrency.changes;
  if (ch.length) {
    const SHOWN = 8;
    const path = ch
      .slice(0, SHOWN)
      .map((c) => `${c.effective} at ${at(c.atMs)}`)
      .join(', ');
    out(
      ctx,
      `throttle   concurrency ${r.concurrency.max} → ${path}${ch.length > SHOWN ? `, … (${ch.length} changes; ends at ${ch[ch.length - 1].effective})` : ''}`,
    );
  }
  if (r.order.length) {
    const broken = r.order.filter((o) => !o.inOrder).length;
    out(
      ctx,
      `order      ${r.order.length} ordering key${r.order.length === 1 ? '' : 's'}; ${broken === 0 ? 'every key delivered in accept order' : `${broken} delivered out of order`}`,
    );
    const SHOWN = 10;
    for (const o of r.order.slice(0, SHOWN))
      out(ctx, `           ${o.key}: ${o.delivered.length ? o.delivered.join(' → ') : '(nothing delivered)'}`);
    if (r.order.length > SHOWN) out(ctx, `           … ${r.order.length - SHOWN} more keys (--json lists them all)`);
  }
  for (const a of r.actions) {
    const what = a.error
      ? `refused: ${a.error}`
      : a.replay
        ? `selected ${a.replay.selected}, attempted ${a.replay.attempted}, succeeded ${a.replay.succeeded}, failed ${a.replay.failed}`
        : 'done';
    out(ctx, `action     ${at(a.atMs)} ${a.do}: ${what}`);
  }
  out(ctx);
  if (r.transitions.length === 0) {
    out(ctx, 'no breaker or health transitions');
    return;
  }
  out(ctx, 'transitions:');
  out(
    ctx,
    formatTable(r.transitions, [
      { header: 'at', value: (t) => at(t.atMs), align: 'right' },
      { header: 'kind', value: (t) => t.kind },
      { header: 'scope', value: (t) => t.scope },
      { header: 'from', value: (t) => t.from },
      { header: 'to', value: (t) => t.to },
      { header: 'reason', value: (t) => t.reason },
    ]),
  );
}
