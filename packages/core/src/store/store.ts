// The store interface every backend implements (SQLite, PostgreSQL), as the intersection of its named parts
// (store/parts/, one file per aggregate with its types); store-conformance/ checks every backend alike. A caller that
// needs one part names that part (the dispatcher: DeliveryQueueStore; auth: CatalogStore).
import type { AttemptTrigger } from '../domain.ts';
import type { AuditStore } from './parts/audit-store.ts';
import type { BreakerStore } from './parts/breaker-store.ts';
import type { CatalogStore } from './parts/catalog-store.ts';
import type { CompatStore } from './parts/compat-store.ts';
import type { DeliveryQueueStore } from './parts/delivery-queue-store.ts';
import type { EndpointEgressStore } from './parts/endpoint-egress-store.ts';
import type { EventStore } from './parts/event-store.ts';
import type { MessageReadStore } from './parts/message-read-store.ts';
import type { OutboxStore } from './parts/outbox-store.ts';
import type { ProcessStore } from './parts/process-store.ts';
import type { ReplayStore } from './parts/replay-store.ts';
import type { ReportingStore } from './parts/reporting-store.ts';
import type { RetentionStore } from './parts/retention-store.ts';
import type { StoreLifecycle } from './parts/store-lifecycle.ts';

export type * from './parts/audit-store.ts';
export type * from './parts/breaker-store.ts';
export type * from './parts/catalog-store.ts';
export type * from './parts/compat-store.ts';
export type * from './parts/delivery-queue-store.ts';
export type * from './parts/endpoint-egress-store.ts';
export type * from './parts/event-store.ts';
export type * from './parts/message-read-store.ts';
export type * from './parts/outbox-store.ts';
export type * from './parts/page.ts';
export type * from './parts/process-store.ts';
export type * from './parts/replay-store.ts';
export type * from './parts/reporting-store.ts';
export type * from './parts/retention-store.ts';
export type * from './parts/store-lifecycle.ts';
export type { StoreProblem } from './storage-fault.ts';

export type Store = StoreLifecycle &
  CatalogStore &
  EndpointEgressStore &
  EventStore &
  DeliveryQueueStore &
  ReportingStore &
  ReplayStore &
  BreakerStore &
  OutboxStore &
  RetentionStore &
  AuditStore &
  ProcessStore &
  CompatStore &
  MessageReadStore;

export type { AttemptTrigger };
