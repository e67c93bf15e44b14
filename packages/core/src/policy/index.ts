// The retry-policy surface: types, presets, classification, the decision, money rules, the registry, timelines.
export type {
  AttemptOutcome,
  BreakerRule,
  DeliveryProgress,
  FailureCode,
  HealthRule,
  Ladder,
  LadderSpec,
  MoneyRule,
  NextStep,
  OutcomeClass,
  Policy,
} from './types.ts';
export { BRIEF, DEFAULT_POLICY, PAYMENTS, PRESETS, STANDARD, STRICT, isPresetName } from './presets.ts';
export { classifyStatus, parseRetryAfter, retryAfterApplies } from './classify.ts';
export { ageLimitReason, decide, ladderBudget, maxAgeExceeded, startProgress } from './decide.ts';
export { DEFAULT_MONEY_RULES, defineMoneyRules, isMoneyEvent } from './money-rules.ts';
export { PolicyConfigError } from './config-error.ts';
export { PolicyRegistry, checkPolicy, definePolicies } from './registry.ts';
export { seededRandom } from './random.ts';
export { planTimeline } from './timeline.ts';
export type { ScriptStep, Timeline, TimelineAttempt, TimelineOptions } from './timeline.ts';
