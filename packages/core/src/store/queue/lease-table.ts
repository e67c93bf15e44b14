// The leases of a SQLite file, held in memory on the store thread instead of in its rows (docs/rules.md#sqlite-leases).
// A SQLite file has one owner process (the lock file), whose restart hands every lease back anyway: a claim only reads
// due rows and notes them here, so no `delivering` write and no lease_until per delivery. The statements that must
// skip or show leased rows ask this table through two SQL functions it registers on the connection; the reads that
// show deliveries see them through it (it is SQLite's lease view).
import type Database from 'better-sqlite3';
import type { Delivery, DeliveryStatus } from '../../domain.ts';
import type { Row } from '../row-values.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import { deliveryFromRow } from './delivery-rows.ts';
import type { LeasedCount, LeaseView } from './lease-view.ts';

export interface Lease {
  workerId: string;
  tenantId: string;
  endpointId: string;
  /** The delivery's ordering key (null: none): a key with a leased delivery is not free. */
  orderingKey: string | null;
  /** The delivery's attempt_count when claimed: its attempt is number attemptCount + 1. */
  attemptCount: number;
  until: number;
}

const keyOf = (endpointId: string, key: string): string => `${endpointId}\u0000${key}`;

export class LeaseTable implements LeaseView {
  readonly #leases = new Map<string, Lease>();
  /** Leased deliveries per endpoint/key pair, for the claim's key check. */
  readonly #keys = new Map<string, number>();

  /**
   * hookline_leased(id): 1 while the delivery is leased. hookline_key_leased(endpoint_id, ordering_key): 1 while a
   * delivery of that key is leased. Both are read inside statements, so they are not deterministic.
   */
  register(db: Database.Database): void {
    db.function('hookline_leased', { deterministic: false }, (id: unknown) => (this.#leases.has(id as string) ? 1 : 0));
    db.function('hookline_key_leased', { deterministic: false }, (endpointId: unknown, key: unknown) =>
      key !== null && this.#keys.has(keyOf(endpointId as string, key as string)) ? 1 : 0,
    );
  }

  get size(): number {
    return this.#leases.size;
  }

  get(id: string): Lease | undefined {
    return this.#leases.get(id);
  }

  /** The lease of `id` if `workerId` holds it. */
  heldBy(id: string, workerId: string): Lease | undefined {
    const l = this.#leases.get(id);
    return l !== undefined && l.workerId === workerId ? l : undefined;
  }

  add(id: string, lease: Lease): void {
    if (this.#leases.has(id)) this.drop(id);
    this.#leases.set(id, lease);
    if (lease.orderingKey !== null) {
      const k = keyOf(lease.endpointId, lease.orderingKey);
      this.#keys.set(k, (this.#keys.get(k) ?? 0) + 1);
    }
  }

  drop(id: string): Lease | undefined {
    const l = this.#leases.get(id);
    if (l === undefined) return undefined;
    this.#leases.delete(id);
    if (l.orderingKey !== null) {
      const k = keyOf(l.endpointId, l.orderingKey);
      const n = (this.#keys.get(k) ?? 1) - 1;
      if (n > 0) this.#keys.set(k, n);
      else this.#keys.delete(k);
    }
    return l;
  }

  /** Drops every lease `matches` picks; the count. */
  dropWhere(matches: (l: Lease) => boolean): number {
    let n = 0;
    for (const [id, l] of this.#leases) if (matches(l) && this.drop(id)) n++;
    return n;
  }

  /** The leased ids, optionally only those `matches` picks. */
  ids(matches?: (l: Lease) => boolean): string[] {
    if (!matches) return [...this.#leases.keys()];
    const out: string[] = [];
    for (const [id, l] of this.#leases) if (matches(l)) out.push(id);
    return out;
  }

  countForEndpoint(endpointId: string): number {
    let n = 0;
    for (const l of this.#leases.values()) if (l.endpointId === endpointId) n++;
    return n;
  }

  /** A delivery read from its row as the API shows it: `delivering`, with its lease, while leased. */
  delivery(row: Row): Delivery {
    const d = deliveryFromRow(row);
    const l = this.#leases.get(d.id);
    if (l !== undefined) {
      d.status = 'delivering';
      d.leaseUntil = l.until;
    }
    return d;
  }

  status(id: string, status: DeliveryStatus): DeliveryStatus {
    return this.#leases.has(id) ? 'delivering' : status;
  }

  /** One statement over the leased rows only (leased-statuses); none while nothing is leased. */
  async leasedCounts(db: SqlExecutor, tenantId?: string): Promise<LeasedCount[]> {
    if (this.#leases.size === 0) return [];
    const ids = tenantId === undefined ? this.ids() : this.ids((l) => l.tenantId === tenantId);
    return ids.length === 0 ? [] : db.all<LeasedCount>('leased-statuses', { ids });
  }

  forget(scope: { endpointId: string } | { tenantId: string }): void {
    if ('endpointId' in scope) this.dropWhere((l) => l.endpointId === scope.endpointId);
    else this.dropWhere((l) => l.tenantId === scope.tenantId);
  }
}
