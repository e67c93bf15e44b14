// One scripted delivery (`hookline simulate --responses …`, POST /v1/simulate): one event through the real engine against a scripted receiver, on a virtual clock.
import { VirtualClock } from '../clock.ts';
import { runUntilIdle } from '../dispatch/run-until-idle.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import { AttemptLog, type SimAttempt, type SimTransition } from './attempt-log.ts';
import type { ScriptedResponse } from './scripted-response.ts';
import { createScriptedSender, scriptPicker } from './scripted-sender.ts';
import { openSimEngine, type SimEngineOptions } from './sim-engine.ts';

export interface ScriptRun {
  /** `createHookline` (see SimEngineOptions.createEngine). */
  readonly createEngine: SimEngineOptions['createEngine'];
  readonly policy: string;
  readonly type: string;
  readonly data: unknown;
  readonly eventId?: string;
  readonly responses: readonly ScriptedResponse[];
  readonly seed: number;
  readonly policies: PolicyRegistry;
}

export interface ScriptResult {
  readonly isMoney: boolean;
  readonly attempts: SimAttempt[];
  readonly transitions: SimTransition[];
  readonly held: ReadonlyArray<{ readonly seq: number; readonly atMs: number; readonly untilMs: number }>;
  readonly final: { readonly status: string; readonly reason: string | null; readonly atMs: number };
}

export async function runScript(run: ScriptRun): Promise<ScriptResult> {
  const clock = new VirtualClock();
  const log = new AttemptLog(() => clock.now());
  const pick = scriptPicker(run.responses);
  const sim = await openSimEngine({
    createEngine: run.createEngine,
    policy: run.policy,
    policies: run.policies,
    seed: run.seed,
    clock,
    sender: createScriptedSender(clock, (n) => pick(n)),
    observers: [log.observer],
  });
  try {
    log.setStart(sim.clock.now());
    const accepted = await sim.engine.events.accept(sim.tenantId, {
      ...(run.eventId ? { event_id: run.eventId } : {}),
      type: run.type,
      data: run.data,
    });
    const delivery = accepted.deliveries[0];
    await runUntilIdle(sim.engine, sim.clock, { onStep: sim.step });
    sim.assertClean();
    const d = await sim.engine.deliveries.find(sim.tenantId, delivery.id);
    if (!d) throw new Error('simulate: the delivery vanished from the store');
    const last = log.attempts.at(-1);
    const ended = log.ended.find((e) => e.deliveryId === d.id);
    const atMs = ended?.atMs ?? (last ? last.atMs + last.durationMs : 0);
    return {
      isMoney: d.isMoney,
      attempts: log.attempts,
      transitions: log.transitions,
      held: log.held,
      final: { status: d.status, reason: d.status === 'succeeded' ? null : d.terminalReason, atMs },
    };
  } finally {
    await sim.close();
  }
}
