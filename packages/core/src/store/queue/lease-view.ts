// The delivery queue's one lease view: how every read of a delivery's status, row or count sees a delivery in flight.
// PostgreSQL keeps a lease in its row (status delivering, lease_until), so its view is the row as it is; SQLite keeps
// leases in memory (docs/rules.md#sqlite-leases, lease-table.ts), so its view shows a leased row as delivering.
import type { Delivery, DeliveryStatus } from '../../domain.ts';
import type { Row } from '../row-values.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import { deliveryFromRow } from './delivery-rows.ts';

/** How many rows of an endpoint read `pending` or `held` while leased (their count moves to delivering). */
export interface LeasedCount {
  tenant_id: string;
  endpoint_id: string;
  status: 'pending' | 'held';
  n: number;
}

export interface LeaseView {
  /** A delivery read from its row (`ev_event_id` and `ev_type` joined from events), as the API shows it. */
  delivery(row: Row): Delivery;
  /** A status read from delivery `id`'s row, as the API shows it. */
  status(id: string, status: DeliveryStatus): DeliveryStatus;
  /** The leased rows (of one tenant) whose row status still reads pending or held, by endpoint and status. */
  leasedCounts(db: SqlExecutor, tenantId?: string): Promise<LeasedCount[]>;
  /** The endpoint or tenant was deleted: its leases go with its rows. */
  forget(scope: { endpointId: string } | { tenantId: string }): void;
}

/** Moves the counts of leased rows from the status their rows read to delivering. */
export function moveLeased<T extends { pending: number; held: number; delivering: number }>(
  counts: T,
  leased: readonly LeasedCount[],
): T {
  for (const r of leased) {
    const n = Number(r.n);
    counts[r.status] -= n;
    counts.delivering += n;
  }
  return counts;
}

/** Leases kept in the rows (PostgreSQL): a row reads as it is. */
export const rowLeases: LeaseView = {
  delivery: deliveryFromRow,
  status: (_id, status) => status,
  leasedCounts: async () => [],
  forget: () => {},
};
