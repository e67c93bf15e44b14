// Endpoint health (docs/rules.md#health-status) as a pure decision: the state after one attempt, and the transition it makes, if any.
import type { EndpointStatus, PauseReason } from './domain.ts';
import type { HealthRule } from './policy/types.ts';

export interface HealthState {
  status: EndpointStatus;
  pauseReason: PauseReason | null;
  failingSince: number | null;
  consecutiveFailedEvents: number;
  lastSuccessAt: number | null;
}

export interface HealthInput {
  rule: HealthRule;
  /** A successful attempt of any kind (scheduled, replay, test). */
  success: boolean;
  /** A failed scheduled attempt (failed replays and tests leave health alone). */
  failure: boolean;
  /** This failure is the delivery's first since the endpoint's last success (brief counts events, not attempts). */
  newFailedEvent: boolean;
  responseStatus: number | null;
  now: number;
}

export interface HealthChange {
  state: HealthState;
  transition: { from: EndpointStatus; to: EndpointStatus; reason: PauseReason | 'recovered' | 'failing' } | null;
  /** False when nothing changed, so the store can skip the write. */
  changed: boolean;
}

export function healthAfterAttempt(state: HealthState, input: HealthInput): HealthChange {
  if (input.success) {
    const next: HealthState = {
      status: state.status === 'degraded' ? 'active' : state.status,
      pauseReason: state.pauseReason,
      failingSince: null,
      consecutiveFailedEvents: 0,
      lastSuccessAt: input.now,
    };
    const transition =
      state.status === 'degraded' ? { from: state.status, to: next.status, reason: 'recovered' as const } : null;
    // lastSuccessAt changes on every success, but writing it each time would cost a row update per delivery;
    // it matters only while a streak is open, so an already-clean endpoint is left untouched.
    const changed =
      state.failingSince !== null ||
      state.consecutiveFailedEvents !== 0 ||
      state.status !== next.status ||
      state.lastSuccessAt === null;
    return { state: changed ? next : state, transition, changed };
  }
  if (!input.failure || state.status === 'paused') return { state, transition: null, changed: false };

  const failingSince = state.failingSince ?? input.now;
  const consecutive = state.consecutiveFailedEvents + (input.newFailedEvent ? 1 : 0);
  const rule = input.rule;
  let pause: PauseReason | null = null;
  if (rule.pauseOnGone && input.responseStatus === 410) pause = 'gone';
  else if (
    rule.suspendAfterConsecutiveFailedEvents !== undefined &&
    consecutive >= rule.suspendAfterConsecutiveFailedEvents
  )
    pause = 'consecutive_failures';
  else if (rule.pauseAfterFailingMs !== undefined && input.now - failingSince >= rule.pauseAfterFailingMs)
    pause = 'failing';

  const next: HealthState = {
    status: pause ? 'paused' : 'degraded',
    pauseReason: pause,
    failingSince,
    consecutiveFailedEvents: consecutive,
    lastSuccessAt: state.lastSuccessAt,
  };
  const transition =
    next.status !== state.status
      ? { from: state.status, to: next.status, reason: pause ?? ('failing' as const) }
      : null;
  return { state: next, transition, changed: true };
}
