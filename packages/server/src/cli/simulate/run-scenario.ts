// `hookline simulate --scenario`: many events against a receiver whose behaviour changes over time, on the real
// engine and a virtual clock; events are accepted when the clock reaches their time.
import { createHookline, type EventInput, type Hookline, isHooklineError, VirtualClock } from '@hookline/core';
import {
  AttemptLog,
  createScriptedSender,
  openSimEngine,
  runUntilIdle,
  type SimAttempt,
  type SimTransition,
} from '@hookline/core/simulation';
import { receiverPicker, type Scenario, type ScenarioAction } from './scenario.ts';

export interface ScenarioDelivery {
  readonly eventId: string;
  readonly deliveryId: string;
  readonly acceptedAtMs: number;
  readonly status: string;
  readonly attempts: number;
  readonly deliveredAtMs: number | null;
  readonly reason: string | null;
  /** The event's ordering key and the delivery's place in the key's order; null on an unordered run. */
  readonly orderingKey: string | null;
  readonly orderingSeq: number | null;
}

/** One ordering key's deliveries in the order their successful attempts happened, and whether that is accept order. */
export interface ScenarioKeyOrder {
  readonly key: string;
  readonly delivered: readonly string[];
  readonly inOrder: boolean;
}

/** One scenario action as it ran; a replay reports its selection and, at the end, its progress. */
export interface ScenarioActionResult {
  readonly atMs: number;
  readonly do: ScenarioAction['do'];
  /** The refusal's machine code (e.g. `endpoint_paused` for a replay while paused); null when it was done. */
  readonly error: string | null;
  readonly replay: {
    readonly selected: number;
    readonly attempted: number;
    readonly succeeded: number;
    readonly failed: number;
  } | null;
}

export interface ScenarioResult {
  readonly policy: string;
  readonly seed: number;
  readonly attempts: SimAttempt[];
  readonly transitions: SimTransition[];
  /** Times a due delivery waited on an open breaker instead of being attempted. */
  readonly holds: number;
  readonly deliveries: ScenarioDelivery[];
  /** Per ordering key (first seen first); empty when no event carries a key. */
  readonly order: ScenarioKeyOrder[];
  readonly actions: ScenarioActionResult[];
  readonly endpoint: { readonly status: string; readonly pauseReason: string | null };
  /** When the last thing happened, ms since t = 0. */
  readonly endMs: number;
  /** Attempts a second over the run and in its busiest second (docs/rules.md#rate-limit), and the limit if any. */
  readonly pacing: { readonly limitPerS: number | null; readonly perS: number; readonly busiestSecond: number };
  /** The endpoint's adaptive concurrency as it changed (docs/rules.md#adaptive-concurrency), and its cap. */
  readonly concurrency: {
    readonly max: number;
    readonly changes: ReadonlyArray<{ readonly atMs: number; readonly effective: number }>;
  };
}

const ACCEPT_CHUNK = 1000;

export async function runScenario(scenario: Scenario, seed: number): Promise<ScenarioResult> {
  const clock = new VirtualClock();
  const start = clock.now();
  const log = new AttemptLog(() => clock.now());
  log.setStart(start);
  const pick = receiverPicker(scenario.receiver);
  const changes: Array<{ atMs: number; effective: number }> = [];
  const sim = await openSimEngine({
    createEngine: createHookline,
    policy: scenario.policy,
    policies: scenario.policies,
    seed,
    clock,
    sender: createScriptedSender(clock, (_n, now) => pick(now - start)),
    observers: [
      log.observer,
      { concurrency: (e) => void changes.push({ atMs: e.at - start, effective: e.effective }) },
    ],
    ordering: scenario.ordering,
    limits: scenario.limits,
  });
  try {
    const step = { onStep: sim.step };
    const accepted: Array<{ eventId: string; deliveryId: string; acceptedAtMs: number }> = [];
    const done: Array<{ action: ScenarioAction; error: string | null; replayId: string | null }> = [];

    for (const [atMs, actions, group] of timeline(scenario)) {
      await runUntilIdle(sim.engine, clock, { ...step, until: start + atMs });
      if (clock.now() < start + atMs) clock.set(start + atMs);
      for (const action of actions)
        done.push({ action, ...(await act(sim.engine, sim.tenantId, sim.endpointId, action, log)) });
      for (let i = 0; i < group.length; i += ACCEPT_CHUNK) {
        const results = await sim.engine.events.acceptMany(sim.tenantId, group.slice(i, i + ACCEPT_CHUNK));
        for (const r of results) {
          if (r instanceof Error) throw r;
          for (const d of r.deliveries)
            accepted.push({ eventId: r.event.eventId, deliveryId: d.id, acceptedAtMs: atMs });
        }
      }
    }
    await runUntilIdle(sim.engine, clock, step);
    sim.assertClean();

    const deliveredAt = new Map<string, number>();
    for (const a of log.attempts) if (a.outcome === 'success') deliveredAt.set(a.deliveryId, a.atMs);
    const deliveries: ScenarioDelivery[] = [];
    for (const a of accepted) {
      const d = await sim.engine.deliveries.find(sim.tenantId, a.deliveryId);
      if (!d) throw new Error(`simulate: delivery ${a.deliveryId} vanished from the store`);
      deliveries.push({
        ...a,
        status: d.status,
        attempts: d.attemptCount,
        deliveredAtMs: deliveredAt.get(d.id) ?? null,
        reason: d.status === 'succeeded' ? null : d.terminalReason,
        orderingKey: d.orderingKey ?? null,
        orderingSeq: d.orderingSeq ?? null,
      });
    }
    const order = keyOrder(deliveries, log.attempts);
    const actions: ScenarioActionResult[] = [];
    for (const d of done) {
      const row = d.replayId ? await sim.engine.replays.find(sim.tenantId, d.replayId) : null;
      actions.push({
        atMs: d.action.atMs,
        do: d.action.do,
        error: d.error,
        replay: row
          ? { selected: row.selected, attempted: row.attempted, succeeded: row.succeeded, failed: row.failed }
          : null,
      });
    }
    const ep = await sim.engine.endpoints.find(sim.tenantId, sim.endpointId);
    const lastAttempt = log.attempts.reduce((m, a) => Math.max(m, a.atMs + a.durationMs), 0);
    return {
      policy: scenario.policy,
      seed,
      attempts: log.attempts,
      transitions: log.transitions.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq),
      holds: log.held.length,
      deliveries,
      order,
      actions,
      endpoint: { status: ep?.status ?? 'deleted', pauseReason: ep?.pauseReason ?? null },
      endMs: Math.max(lastAttempt, clock.now() - start),
      pacing: { limitPerS: ep?.rateLimitPerS ?? null, ...pace(log.attempts.map((a) => a.atMs)) },
      concurrency: { max: ep?.maxConcurrency ?? 0, changes },
    };
  } finally {
    await sim.close();
  }
}

/** Runs one operator action through the engine's own operations; a refusal is reported, not thrown. */
async function act(
  engine: Hookline,
  tenantId: string,
  endpointId: string,
  a: ScenarioAction,
  log: AttemptLog,
): Promise<{ error: string | null; replayId: string | null }> {
  try {
    if (a.do === 'replay')
      return {
        error: null,
        replayId: (await engine.replays.window(tenantId, endpointId, { includeSkipped: a.includeSkipped })).id,
      };
    const from = (await engine.endpoints.get(tenantId, endpointId)).status;
    // A pause or reactivation is a transition of the endpoint like health's own: the transitions list shows it.
    const record = (to: string) => {
      if (to !== from)
        log.operator(
          endpointId,
          from,
          to,
          a.do === 'pause' ? 'manual' : a.catchUp ? 'reactivated, catch-up' : 'reactivated',
        );
    };
    if (a.do === 'reactivate' && a.catchUp) {
      const r = await engine.endpoints.reactivate(tenantId, endpointId, { status: 'active', catch_up: true });
      record(r.endpoint.status);
      return { error: null, replayId: r.replay.id };
    }
    const ep = await engine.endpoints.update(tenantId, endpointId, { status: a.do === 'pause' ? 'paused' : 'active' });
    record(ep.status);
    return { error: null, replayId: null };
  } catch (err) {
    if (isHooklineError(err)) return { error: err.code, replayId: null };
    throw err;
  }
}

/** Attempts a second from the first to the last, and the most any one second (sliding) held. */
function pace(times: number[]): { perS: number; busiestSecond: number } {
  const at = [...times].sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; j < at.length; j++) {
    while (at[j] - at[i] >= 1000) i++;
    busiest = Math.max(busiest, j - i + 1);
  }
  const span = at.length > 1 ? at[at.length - 1] - at[0] : 0;
  return {
    perS: span > 0 ? Math.round(((at.length - 1) * 1000 * 100) / span) / 100 : at.length,
    busiestSecond: busiest,
  };
}

/** Each key's delivered events in the order of their successful attempts (the attempt log is in time order). */
function keyOrder(deliveries: readonly ScenarioDelivery[], attempts: readonly SimAttempt[]): ScenarioKeyOrder[] {
  const byId = new Map(deliveries.filter((d) => d.orderingKey !== null).map((d) => [d.deliveryId, d]));
  const keys = new Map<string, ScenarioDelivery[]>();
  for (const d of byId.values()) if (!keys.has(d.orderingKey!)) keys.set(d.orderingKey!, []);
  for (const a of attempts) {
    const d = a.outcome === 'success' ? byId.get(a.deliveryId) : undefined;
    if (d) keys.get(d.orderingKey!)!.push(d);
  }
  return [...keys].map(([key, list]) => ({
    key,
    delivered: list.map((d) => d.eventId),
    inOrder: list.every((d, i) => i === 0 || list[i - 1].orderingSeq! < d.orderingSeq!),
  }));
}

/** Actions and arrivals as [time, actions, events] in time order; at one time the actions come first. */
function timeline(scenario: Scenario): Array<[number, ScenarioAction[], EventInput[]]> {
  const steps = new Map<number, [ScenarioAction[], EventInput[]]>();
  const at = (ms: number) => steps.get(ms) ?? (steps.set(ms, [[], []]), steps.get(ms)!);
  for (const a of scenario.actions) at(a.atMs)[0].push(a);
  for (const [ms, group] of arrivals(scenario)) at(ms)[1].push(...group);
  return [...steps.entries()].sort(([x], [y]) => x - y).map(([ms, [actions, events]]) => [ms, actions, events]);
}

/** Every event of the scenario as [time, inputs] groups in time order; event ids are stable: sim-00001, … */
function arrivals(scenario: Scenario): Array<[number, EventInput[]]> {
  const all: Array<{ atMs: number; type: string; data: unknown; key: string | null }> = [];
  for (const g of scenario.events) {
    for (let i = 0; i < g.count; i++)
      all.push({
        atMs: g.atMs + i * g.everyMs,
        type: g.type,
        data: g.data,
        key: g.orderingKeys ? g.orderingKeys[i % g.orderingKeys.length] : null,
      });
  }
  all.sort((a, b) => a.atMs - b.atMs); // stable: same-time events keep file order
  const width = String(all.length).length;
  const groups = new Map<number, EventInput[]>();
  all.forEach((e, i) => {
    const list = groups.get(e.atMs) ?? [];
    list.push({
      event_id: `sim-${String(i + 1).padStart(Math.max(width, 5), '0')}`,
      type: e.type,
      data: e.data,
      ...(e.key !== null ? { ordering_key: e.key } : {}),
    });
    groups.set(e.atMs, list);
  });
  return [...groups.entries()];
}
