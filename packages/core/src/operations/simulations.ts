// Policy preview: the attempt timeline a policy gives against a scripted receiver, computed by the real engine on a
// virtual clock in a throwaway SQLite store (the same run as `hookline simulate --responses`). Nothing is sent and
// nothing of this engine's store is read or written. Input is bounded: at most SIMULATION_MAX_RESPONSES answers.

import { formatDuration } from '../duration.ts';
import { fail } from '../errors.ts';
import { isPresetName } from '../policy/presets.ts';
import type { Policy } from '../policy/types.ts';
import { runScript, type ScriptResult } from '../simulation/run-script.ts';
import { parseResponse, type ScriptedResponse } from '../simulation/scripted-response.ts';
import type { SimEngineOptions } from '../simulation/sim-engine.ts';
import type { EngineParts } from './engine-parts.ts';

export const SIMULATION_MAX_RESPONSES = 50;
/** Simulations running at once in this process; one more is refused (429 simulation_busy) rather than queued. */
export const SIMULATION_MAX_RUNNING = 2;

export interface SimulationInput {
  readonly policy: string;
  /** An HTTP status (100-599), `timeout` or `reset` per request; the last one repeats. */
  readonly responses: ReadonlyArray<string | number>;
  readonly type?: string;
  readonly data?: unknown;
  readonly seed?: number;
}

export interface PolicySummary {
  readonly name: string;
  readonly preset: boolean;
  readonly timeoutMs: number;
  readonly maxConcurrency: number;
  readonly description: string;
}

export class SimulationOperations {
  readonly #p: EngineParts;
  readonly #createEngine: SimEngineOptions['createEngine'];
  #running = 0;

  /** `createEngine` is `createHookline`: each preview runs on an engine of its own (a throwaway store, a virtual clock). */
  constructor(parts: EngineParts, createEngine: SimEngineOptions['createEngine']) {
    this.#p = parts;
    this.#createEngine = createEngine;
  }

  /** Every policy an endpoint can name: the presets, then the configured ones. */
  policies(): PolicySummary[] {
    return this.#p.policies.names().map((name) => {
      const p = this.#p.policies.get(name)!;
      return {
        name,
        preset: isPresetName(name),
        timeoutMs: p.timeoutMs,
        maxConcurrency: p.maxConcurrency,
        description: describePolicy(p),
      };
    });
  }

  async preview(
    input: SimulationInput,
  ): Promise<ScriptResult & { readonly policy: string; readonly seed: number; readonly type: string }> {
    if (!this.#p.policies.has(input.policy)) throw fail('unknown_policy', { name: input.policy });
    if (input.responses.length === 0 || input.responses.length > SIMULATION_MAX_RESPONSES) {
      throw fail('invalid_request', { detail: `responses must hold 1 to ${SIMULATION_MAX_RESPONSES} answers` });
    }
    const responses: ScriptedResponse[] = input.responses.map((raw, i) => {
      const r = parseResponse(raw);
      if (typeof r === 'string') throw fail('invalid_request', { detail: `responses/${i}: ${r}` });
      return r;
    });
    if (this.#running >= SIMULATION_MAX_RUNNING) throw fail('simulation_busy', { max: SIMULATION_MAX_RUNNING });
    const seed = input.seed ?? 1;
    const type = input.type ?? 'simulate.test';
    this.#running++;
    try {
      const result = await runScript({
        createEngine: this.#createEngine,
        policy: input.policy,
        type,
        data: input.data ?? {},
        responses,
        seed,
        policies: this.#p.policies,
      });
      return { ...result, policy: input.policy, seed, type };
    } finally {
      this.#running--;
    }
  }
}

function describePolicy(p: Policy): string {
  const ladder = (l: Policy['fast']) => {
    const n = l.maxFailures ?? l.delaysMs.length + 1;
    const steps = l.delaysMs.map((d) => formatDuration(d)).join(', ');
    return `${l.repeatLast ? 'repeating' : `${n} attempts`}${steps ? ` (pauses ${steps})` : ''}`;
  };
  const parts = [`fast ladder: ${ladder(p.fast)}`];
  if (p.slow) parts.push(`slow ladder: ${ladder(p.slow)}`);
  parts.push(`client errors: ${p.clientErrors}`, `timeout ${formatDuration(p.timeoutMs)}`, `cap ${p.maxConcurrency}`);
  if (p.maxAgeMs) parts.push(`age limit ${formatDuration(p.maxAgeMs)}`);
  if (p.breaker) parts.push('circuit breaker');
  return parts.join('; ');
}
