// The retry-policy surface: types, presets, classification, the decision, money rules, the registry, timelines.

export { classifyStatus, parseRetryAfter, retryAfterApplies } from './classify.ts';
export { PolicyConfigError } from './config-error.ts';
export { ageLimitReason, decide, ladderBudget, maxAgeExceeded, startProgress } from './decide.ts';
export { DEFAULT_MONEY_RULES, defineMoneyRules, isMoneyEvent } from './money-rules.ts';
export { BRIEF, DEFAULT_POLICY, isPresetName, PAYMENTS, PRESETS, STANDARD, STRICT } from './presets.ts';
export { seededRandom } from './random.ts';
export { checkPolicy, definePolicies, PolicyRegistry } from './registry.ts';
export type { ScriptStep, Timeline, TimelineAttempt, TimelineOptions } from './timeline.ts';
export { planTimeline } from './timeline.ts';
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
export { OUTCOME_CLASSES } from './types.ts';
