// Dedup store on PostgreSQL through a `pg` Pool (or Client) the caller creates.
import type { DedupStore } from '../dedup-store.ts';
import { sqlDedupStore, sqlStatements } from './sql-dedup-store.ts';

/** The slice of `pg`'s Pool we use; the driver itself is never imported here. */
export interface PostgresQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
}

/**
 * A durable `DedupStore` on PostgreSQL; claims use `INSERT … ON CONFLICT`, so concurrent
 * deliveries of one id race safely across processes. The table is created on first use.
 *
 * @example
 * import pg from 'pg';
 * const store = postgresStore(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 */
export function postgresStore(pool: PostgresQueryable): DedupStore {
  let ready: Promise<unknown> | undefined;
  const ensureSchema = (): Promise<unknown> => {
    ready ??= pool.query(sqlStatements.schema).catch((error: unknown) => {
      ready = undefined; // try again on the next call once the database is back
      throw error;
    });
    return ready;
  };
  return sqlDedupStore({
    async run(name, params) {
      await ensureSchema();
      const result = await pool.query(sqlStatements[name], [...params]);
      return { rows: result.rows as Array<Record<string, unknown>>, changes: result.rowCount ?? 0 };
    },
  });
}
