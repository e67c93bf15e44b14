// Drives an engine on a virtual clock: run what is due, jump to the next due time, repeat until nothing is left.
// `hookline simulate` runs its scripts on it; tests reach it as `settle` (packages/core/testing/settle.ts).
import type { VirtualClock } from '../clock.ts';

/** What the loop needs of an engine (a Hookline has both): run its due work, and tell when more is due. */
export interface IdleTarget {
  runDue(): Promise<unknown>;
  nextDueAt(): Promise<number | null>;
}

export interface RunUntilIdleOptions {
  /** Stop once the clock passes this time (ms since epoch) even if work remains. */
  until?: number;
  /** Upper bound on loop rounds: a runaway schedule fails loudly instead of spinning. */
  maxRounds?: number;
  /** Called at each step, before due work runs (maintenance jobs hook in here). */
  onStep?: (now: number) => Promise<void>;
}

/** Returns the number of rounds it took. Every accepted delivery ends terminal unless `until` cut it short. */
export async function runUntilIdle(
  engine: IdleTarget,
  clock: VirtualClock,
  options: RunUntilIdleOptions = {},
): Promise<number> {
  const maxRounds = options.maxRounds ?? 100_000;
  for (let round = 1; round <= maxRounds; round++) {
    await options.onStep?.(clock.now());
    await engine.runDue();
    const next = await engine.nextDueAt();
    if (next === null) return round;
    if (options.until !== undefined && next > options.until) {
      clock.set(Math.max(clock.now(), options.until));
      return round;
    }
    if (next > clock.now()) clock.set(next);
  }
  throw new Error(`run until idle: still busy after ${maxRounds} rounds`);
}
