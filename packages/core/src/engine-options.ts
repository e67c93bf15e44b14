// What an engine is built from (createHookline's options), in a module of its own so the parts that build engines
// (the simulation, test harnesses) name the options without importing the engine that imports them.
import type { Tracer } from '@opentelemetry/api';
import type { Clock } from './clock.ts';
import type { AdmissionGate } from './dispatch/admission.ts';
import type { DeliverySender } from './dispatch/dispatcher.ts';
import type { DispatchObserver } from './dispatch/observers.ts';
import type { TenantLimits } from './domain.ts';
import type { EgressOptions } from './egress-routes.ts';
import type { LookupAll } from './http/guarded-lookup.ts';
import type { Logger } from './logger.ts';
import type { RetentionOptions } from './maintenance/retention.ts';
import type { PolicyRegistry } from './policy/registry.ts';
import type { MoneyRule } from './policy/types.ts';
import type { Store } from './store/store.ts';

export interface HooklineOptions {
  store: Store;
  /** 32-byte key (base64 or hex) that encrypts signing secrets at rest. */
  masterKey: string | Buffer;
  clock?: Clock;
  policies?: PolicyRegistry;
  moneyRules?: readonly MoneyRule[];
  sender?: DeliverySender;
  /** DNS resolution for the built-in sender (tests); its answers still pass the connect-time SSRF guard. */
  lookup?: LookupAll;
  logger?: Logger;
  /** Plain http endpoint URLs (development only). */
  allowHttp?: boolean;
  /** Loopback/private endpoint targets (development and tests only). */
  allowPrivateTargets?: boolean;
  /** Forward proxies of the built-in sender and the targets that go direct (docs/rules.md#egress-proxy). */
  egress?: EgressOptions;
  /** Replaces the circuit breaker as the dispatcher's gate (engine.breakers still answers status/reset); the age limit holds whatever the gate. */
  gate?: AdmissionGate;
  observers?: DispatchObserver[];
  /** Circuit breaker tuning (docs/rules.md#breaker-scope); the rules themselves are policy data. */
  breaker?: { cacheMs?: number; staleProbeMs?: number };
  /** Health sweep and retention (docs/rules.md#health-pause, docs/rules.md#retention); started by start() unless `enabled: false`. */
  maintenance?: { enabled?: boolean; intervalMs?: number; retention?: Partial<RetentionOptions> };
  dispatcher?: {
    batchSize?: number;
    maxInFlight?: number;
    leaseFactor?: number;
    pollMs?: number;
    sweepMs?: number;
    leaseMs?: number;
    workerId?: string;
    logAttempts?: boolean;
    random?: () => number;
    adaptiveConcurrency?: boolean;
  };
  /** The notification outbox's drainer (docs/rules.md#notifications); started by start(), sending once a handler is installed. */
  notifications?: {
    summaryWindowMs?: number;
    pollMs?: number;
    leaseMs?: number;
    maxTries?: number;
    /** A degradation this soon after a recovery reopens the same incident (docs/rules.md#notifications: 15 min). */
    reopenWindowMs?: number;
  };
  /** Default secret-rotation overlap (docs/rules.md#secret-rotation: 24 h). */
  rotationOverlapMs?: number;
  /** Window replays per tenant per UTC day (docs/rules.md#replay-quota: 20). */
  replayQuotaPerDay?: number;
  /** Most deliveries one window replay selects (docs/rules.md#replay-window: 10,000). */
  replayMaxDeliveries?: number;
  /** Every tenant's limits where it has none of its own (docs/rules.md#tenant-limits); unset: unlimited. */
  tenantLimits?: Partial<TenantLimits>;
  /** Per event type: a money rule from the event-type registry overrides `moneyRules` (undefined: no opinion). */
  isMoneyOverride?: (type: string, data: unknown) => boolean | undefined;
  /**
   * Attempts, replays, probes and test deliveries become spans of this tracer (docs/observability.md#traces). Absent
   * (the default): the engine does no span work at all.
   */
  tracer?: Tracer;
}
