// Counts by status on SQLite with the leases in memory merged in (docs/rules.md#sqlite-leases): a leased delivery's row
// still reads pending or held, so its count moves to delivering. One statement over the leased rows only.
import type { DeliveryStatus } from '../../domain.ts';
import type { EndpointStats } from '../parts/reporting-store.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { LeaseTable } from './lease-table.ts';

interface LeasedRow {
  tenant_id: string;
  endpoint_id: string;
  status: 'pending' | 'held';
  n: number;
}

async function leasedRows(db: SqlExecutor, leases: LeaseTable, tenantId?: string): Promise<LeasedRow[]> {
  if (leases.size === 0) return [];
  const ids = tenantId === undefined ? leases.ids() : leases.ids((l) => l.tenantId === tenantId);
  return ids.length === 0 ? [] : db.all<LeasedRow>('leased-statuses', { ids });
}

function move<T extends { pending: number; held: number; delivering: number }>(counts: T, rs: LeasedRow[]): T {
  for (const r of rs) {
    const n = Number(r.n);
    counts[r.status] -= n;
    counts.delivering += n;
  }
  return counts;
}

export async function countByStatus(
  db: SqlExecutor,
  leases: LeaseTable,
  counts: Record<DeliveryStatus, number>,
): Promise<Record<DeliveryStatus, number>> {
  return move(counts, await leasedRows(db, leases));
}

export async function countQueued(
  db: SqlExecutor,
  leases: LeaseTable,
  counts: Record<'pending' | 'delivering' | 'held', number>,
): Promise<Record<'pending' | 'delivering' | 'held', number>> {
  return move(counts, await leasedRows(db, leases));
}

export async function endpointStats(
  db: SqlExecutor,
  leases: LeaseTable,
  tenantId: string,
  stats: EndpointStats[],
): Promise<EndpointStats[]> {
  const rs = await leasedRows(db, leases, tenantId);
  if (rs.length === 0) return stats;
  const byEndpoint = new Map(stats.map((s) => [s.endpointId, s]));
  for (const r of rs) {
    const s = byEndpoint.get(r.endpoint_id);
    if (s) move(s.queued, [r]);
  }
  return stats;
}
