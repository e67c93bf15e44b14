// The store every backend implements (SQLite, PostgreSQL): an object of named parts, each an interface in its own
// folder with its types, its SQL functions and its row mapping; store-conformance/ checks every backend alike. A caller
// takes the parts it uses (the dispatcher: `Pick<Store, 'queue' | …>`; auth: the catalog).
import type { AttemptTrigger } from '../domain.ts';
import type { AUDITED_METHODS, AuditedMethod, AuditStore } from './audit/audit-store.ts';
import type { BreakerStore } from './breakers/breaker-store.ts';
import type { CatalogStore } from './catalog/catalog-store.ts';
import type { EndpointEgressStore } from './egress/egress-store.ts';
import type { EventStore } from './events/event-store.ts';
import type { OutboxStore } from './outbox/outbox-store.ts';
import type { ProcessStore } from './processes/process-store.ts';
import type { DeliveryQueueStore } from './queue/queue-store.ts';
import type { ReplayStore } from './replays/replay-store.ts';
import type { ReportingStore } from './reporting/reporting-store.ts';
import type { RetentionStore } from './retention/retention-store.ts';
import type { StoreLifecycle } from './store-lifecycle.ts';
import type { SvixStore } from './svix/svix-store.ts';

export type * from './audit/audit-store.ts';
export type * from './breakers/breaker-store.ts';
export type * from './catalog/catalog-store.ts';
export type * from './egress/egress-store.ts';
export type * from './events/event-store.ts';
export type * from './outbox/outbox-store.ts';
export type * from './page.ts';
export type * from './processes/process-store.ts';
export type * from './queue/queue-store.ts';
export type * from './replays/replay-store.ts';
export type * from './reporting/reporting-store.ts';
export type * from './retention/retention-store.ts';
export type { StoreProblem } from './storage-fault.ts';
export type * from './store-lifecycle.ts';
export type * from './svix/svix-store.ts';

export interface Store extends StoreLifecycle {
  /** Tenants, API keys, endpoints and their secrets, event types, portal links, settings. */
  readonly catalog: CatalogStore;
  /** An endpoint's way out: proxy choice, client certificate, OAuth2 client. */
  readonly egress: EndpointEgressStore;
  /** Events accepted with their deliveries, read back, searched. */
  readonly events: EventStore;
  /** The delivery queue: claim, record, hold, end, leases (the one part whose module differs per dialect). */
  readonly queue: DeliveryQueueStore;
  /** Deliveries and attempts read back, counts, per-endpoint stats. */
  readonly reporting: ReportingStore;
  readonly replays: ReplayStore;
  /** Breakers and endpoint health. */
  readonly breakers: BreakerStore;
  /** The notification outbox and the tenants' notices. */
  readonly outbox: OutboxStore;
  readonly retention: RetentionStore;
  readonly audit: AuditStore;
  /** The settings rows running processes publish. */
  readonly processes: ProcessStore;
  /** What the Svix-compatible API keeps beside Hookline's rows: uids, labels, messages, idempotency keys. */
  readonly svix: SvixStore;
}

/** The names of the store's parts. */
export type StorePart = Exclude<keyof Store, keyof StoreLifecycle>;

/** The audited write `method` as its part declares it. */
export type AuditedWrite<M extends AuditedMethod> = M extends keyof Store[(typeof AUDITED_METHODS)[M]]
  ? Store[(typeof AUDITED_METHODS)[M]][M]
  : never;

export type { AttemptTrigger };
