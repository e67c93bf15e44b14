// What the operations work on: the engine's parts, shared by reference and private to the engine and this folder.

import type { Tracer } from '@opentelemetry/api';
import type { Breaker } from '../breaker/breaker-gate.ts';
import type { Clock } from '../clock.ts';
import type { DeliverySender, Dispatcher } from '../dispatch/dispatcher.ts';
import type { EgressCache } from '../dispatch/egress-cache.ts';
import type { SecretCache } from '../dispatch/secret-cache.ts';
import type { TenantLimits } from '../domain.ts';
import type { Ingest } from '../ingest.ts';
import type { Logger } from '../logger.ts';
import type { Maintenance } from '../maintenance/runner.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import type { SecretBox } from '../secret-box.ts';
import type { HealthTransition, Store } from '../store/store.ts';

export interface EngineParts {
  readonly store: Store;
  readonly clock: Clock;
  readonly policies: PolicyRegistry;
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly ingest: Ingest;
  readonly dispatcher: Dispatcher;
  readonly sender: DeliverySender & { close?: () => Promise<void>; closeEndpoint?: (endpointId: string) => void };
  readonly secrets: SecretCache;
  /** The endpoints' proxy choices, client certificates and OAuth2 clients, opened per endpoint version. */
  readonly egress: EgressCache;
  readonly breaker: Breaker;
  readonly maintenance: Maintenance;
  readonly settings: {
    allowHttp?: boolean;
    allowPrivateTargets?: boolean;
    rotationOverlapMs?: number;
    replayQuotaPerDay?: number;
    replayMaxDeliveries?: number;
    /** A test delivery's recovery waits out this window before it is told (docs/rules.md#notifications). */
    noticeReopenWindowMs?: number;
    /** Every tenant's limits where it has none of its own (docs/rules.md#tenant-limits). */
    tenantLimits?: TenantLimits;
  };
  /** Tells every observer about health transitions made outside an attempt (test deliveries, the health sweep). */
  emitHealth(transitions: HealthTransition[]): void;
  /** Test deliveries are spans of it too (docs/observability.md#traces); null: tracing off. */
  readonly tracer: Tracer | null;
}

export const DAY_MS = 86_400_000;
