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
  return sqlDedupStore({ run: postgresRunner(pool, sqlStatements) });
}

/**
 * Runs `statements[name]` on `pool` (the dedup store and the inbox), creating the schema on first use; a failed
 * creation is tried again on the next call, once the database is back.
 */
export function postgresRunner<N extends string>(
  pool: PostgresQueryable,
  statements: Record<N | 'schema', string>,
): (name: N, params: readonly unknown[]) => Promise<{ rows: Array<Record<string, unknown>>; changes: number }> {
  let ready: Promise<unknown> | undefined;
  const ensureSchema = (): Promise<unknown> => {
    ready ??= pool.query(statements.schema).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  return async (name, params) => {
    await ensureSchema();
    const result = await pool.query(statements[name], [...params]);
    return { rows: result.rows as Array<Record<string, unknown>>, changes: result.rowCount ?? 0 };
  };
}
