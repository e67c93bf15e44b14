// A Store over a SQL driver: every part is its module's functions bound once to one scope (store-scope.ts). The parts
// both dialects share are listed here; the queue's module and lease view are the dialect's (postgres/postgres-store.ts,
// sqlite/sqlite-store.ts).
import * as audit from './audit/audit-sql.ts';
import * as breakers from './breakers/breaker-sql.ts';
import * as catalog from './catalog/catalog-sql.ts';
import * as egress from './egress/egress-sql.ts';
import * as events from './events/event-sql.ts';
import * as outbox from './outbox/outbox-sql.ts';
import * as processes from './processes/process-sql.ts';
import type { LeaseView } from './queue/lease-view.ts';
import type { DeliveryQueueStore } from './queue/queue-store.ts';
import * as replays from './replays/replay-sql.ts';
import * as reporting from './reporting/reporting-sql.ts';
import * as retention from './retention/retention-sql.ts';
import type { SqlDriver } from './sql-driver.ts';
import type { Store } from './store.ts';
import { bindPart, type StoreScope } from './store-scope.ts';
import * as svix from './svix/svix-sql.ts';

/** The part modules every SQL store shares, by part name. */
export const SHARED_PARTS = {
  catalog,
  egress,
  events,
  reporting,
  replays,
  breakers,
  outbox,
  retention,
  audit,
  processes,
  svix,
};

/** A queue module: each DeliveryQueueStore method, taking the dialect's scope first. */
export type QueueModule = {
  readonly [K in keyof DeliveryQueueStore]: DeliveryQueueStore[K] extends (...args: infer A) => infer R
    ? (scope: never, ...args: A) => R
    : never;
};

/** The store over `driver`, with the dialect's queue module and lease view. */
export function composeStore<D extends SqlDriver, L extends LeaseView>(
  driver: D,
  leases: L,
  queue: QueueModule,
): Store {
  const parts = { ...SHARED_PARTS, queue };
  const scope: StoreScope<D, L> = { db: driver, leases, capsAcrossWorkers: driver.dialect === 'postgres', parts };
  return {
    dialect: driver.dialect,
    capsAcrossWorkers: scope.capsAcrossWorkers,
    migrate: () => driver.migrate(),
    close: () => driver.close(),
    ping: () => driver.ping(),
    problem: async () => {
      if (driver.problem) return driver.problem();
      return (await driver.ping()) ? null : { fatal: false, reason: 'the database does not answer' };
    },
    onFatal: (listener) => driver.onFatal?.(listener),
    catalog: bindPart(scope, catalog),
    egress: bindPart(scope, egress),
    events: bindPart(scope, events),
    queue: bindPart(scope, queue) as DeliveryQueueStore,
    reporting: bindPart(scope, reporting),
    replays: bindPart(scope, replays),
    breakers: bindPart(scope, breakers),
    outbox: bindPart(scope, outbox),
    retention: bindPart(scope, retention),
    audit: bindPart(scope, audit),
    processes: bindPart(scope, processes),
    svix: bindPart(scope, svix),
  };
}
