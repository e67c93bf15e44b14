// Opens the PostgreSQL store: the parts over a PostgresDriver, its queue's leases in the rows (queue/postgres-queue.ts),
// migrated, with LISTEN/NOTIFY wake-ups (onDue).
import { composeStore } from '../compose-store.ts';
import { rowLeases } from '../queue/lease-view.ts';
import * as postgresQueue from '../queue/postgres-queue.ts';
import type { Store } from '../store.ts';
import { PostgresDriver, type PostgresOptions } from './postgres-driver.ts';
import { upkeepWarnings } from './upkeep-warnings.ts';

/** The store plus what only PostgreSQL adds: other processes' due work wakes this one's dispatcher, and its checks. */
export interface PostgresStore extends Store {
  readonly pg: PostgresDriver;
  onDue(cb: () => void): () => void;
  /**
   * Refuses a database where a COMMIT can return before it is on disk: a 202 is given once COMMIT returns
   * (docs/rules.md#accepted-on-disk), so `synchronous_commit = off`, `fsync = off` or `full_page_writes = off` (for
   * the server, this database or this role) would acknowledge events a crash can lose.
   */
  checkDurability(): Promise<void>;
  /** What the operator should be told at start about PostgreSQL's own upkeep (autovacuum off); never refused. */
  upkeepWarnings(): Promise<string[]>;
}

export function postgresStore(pg: PostgresDriver): PostgresStore {
  return {
    ...composeStore(pg, rowLeases, postgresQueue),
    pg,
    onDue: (cb) => pg.onDue(cb),
    async checkDurability() {
      const [s] = await pg.transaction((tx) => tx.all('durability-settings'));
      const off = (['synchronous_commit', 'fsync', 'full_page_writes'] as const).filter((k) => s?.[k] === 'off');
      if (off.length > 0)
        throw new Error(
          `PostgreSQL has ${off.map((k) => `${k} = off`).join(', ')} for this database or role: a commit could be answered before it is on disk; set ${off.length > 1 ? 'them' : 'it'} back to on (docs/deploy.md#postgresql)`,
        );
    },
    async upkeepWarnings() {
      const [s] = await pg.transaction((tx) => tx.all('upkeep-settings'));
      return upkeepWarnings(s ?? {});
    },
  };
}

/**
 * `const store = await openPostgresStore('postgres://hookline@db/hookline')` — pooled, statement timeouts on,
 * refused when commits would not be durable, migrated (once, even when several processes start together).
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
  const store = postgresStore(new PostgresDriver(url, options));
  try {
    await store.checkDurability();
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
