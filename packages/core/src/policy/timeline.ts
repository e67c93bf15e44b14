// Plays a script of responses through decide() to get the exact attempt timeline (tests and `hookline simulate`).
import { classifyStatus } from './classify.ts';
import { decide, startProgress } from './decide.ts';
import type { AttemptOutcome, DeliveryProgress, Ladder, NextStep, Policy } from './types.ts';

/** One scripted response: an HTTP status, a network-level failure, or a full outcome. */
export type ScriptStep =
  | number
  | 'timeout'
  | 'connection'
  | {
      readonly status?: number;
      readonly outcome?: AttemptOutcome['outcome'];
      readonly retryAfterMs?: number;
      readonly durationMs?: number;
    };

export interface TimelineOptions {
  /** When the delivery was created; the first attempt starts at `firstAttemptAt` (default: the same instant). */
  readonly createdAt?: number;
  readonly firstAttemptAt?: number;
  readonly isMoney?: boolean;
  readonly random?: () => number;
  /** How long each attempt takes unless its step says otherwise (a timeout takes the policy's timeout). */
  readonly durationMs?: number;
  /** Stop after this many attempts even if the policy would go on (a hand-built policy could retry forever). */
  readonly maxAttempts?: number;
}

export interface TimelineAttempt {
  readonly n: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: AttemptOutcome;
  /** What decide() said after this attempt. */
  readonly next: NextStep;
}

export interface Timeline {
  readonly attempts: readonly TimelineAttempt[];
  /** How the delivery ended: succeeded, failed, or cut off by maxAttempts while still retrying. */
  readonly end:
    | Exclude<NextStep, { kind: 'retry' }>
    | { readonly kind: 'cut_off'; readonly at: number; readonly ladder: Ladder };
}

/** The script's last step repeats once it runs out, so `[500, 500, 404]` reads "500, 500, 404, 404, …". */
export function planTimeline(policy: Policy, script: readonly ScriptStep[], options: TimelineOptions = {}): Timeline {
  if (script.length === 0) throw new Error('a timeline script needs at least one step');
  const createdAt = options.createdAt ?? 0;
  const random = options.random ?? (() => 0.5); // no jitter unless asked: timelines should read like docs/rules.md
  const maxAttempts = options.maxAttempts ?? 1000;
  let progress: DeliveryProgress = startProgress(createdAt, options.isMoney ?? false);
  let startedAt = options.firstAttemptAt ?? createdAt;
  const attempts: TimelineAttempt[] = [];
  for (let n = 1; ; n++) {
    const raw = script[Math.min(n, script.length) - 1];
    const outcome = toOutcome(raw);
    const durationMs =
      typeof raw === 'object' && raw.durationMs !== undefined
        ? raw.durationMs
        : raw === 'timeout'
          ? policy.timeoutMs
          : (options.durationMs ?? 0);
    // The dispatcher records the first attempt's start before deciding, so windows count from it exactly.
    if (progress.firstAttemptAt === null) progress = { ...progress, firstAttemptAt: startedAt };
    const endedAt = startedAt + durationMs;
    const next = decide(policy, progress, outcome, endedAt, random);
    attempts.push({ n, startedAt, endedAt, outcome, next });
    if (next.kind !== 'retry') return { attempts, end: next };
    if (n >= maxAttempts) return { attempts, end: { kind: 'cut_off', at: next.at, ladder: next.ladder } };
    progress = next.progress;
    startedAt = next.at;
  }
}

function toOutcome(step: ScriptStep): AttemptOutcome {
  if (typeof step === 'number') return { outcome: classifyStatus(step), status: step };
  if (step === 'timeout' || step === 'connection') return { outcome: 'delivery_failure' };
  const outcome = step.outcome ?? (step.status === undefined ? 'delivery_failure' : classifyStatus(step.status));
  return {
    outcome,
    ...(step.status === undefined ? {} : { status: step.status }),
    ...(step.retryAfterMs === undefined ? {} : { retryAfterMs: step.retryAfterMs }),
  };
}
