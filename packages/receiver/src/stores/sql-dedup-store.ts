// The dedup logic both SQL stores share; SQLite and PostgreSQL differ only in how they run a statement.
import { claimOutcome, type DedupRecord, type DedupState, type DedupStore } from '../dedup-store.ts';
import { StorageUnavailable } from '../errors.ts';
import { sqlFile } from '../sql-files.generated.ts';

/** The statements in `./sql/*.sql`; the same text serves both dialects. */
export const sqlStatements = Object.freeze({
  schema: load('schema'),
  claim: load('claim'),
  select: load('select'),
  markProcessing: load('mark-processing'),
  markDone: load('mark-done'),
  markFailed: load('mark-failed'),
  release: load('release'),
  prune: load('prune'),
});

export type SqlStatementName = Exclude<keyof typeof sqlStatements, 'schema'>;

/** Runs one named statement with `$n` parameters; returns rows and the affected-row count. */
export interface SqlRunner {
  run(
    name: SqlStatementName,
    params: readonly unknown[],
  ): Promise<{ rows: Array<Record<string, unknown>>; changes: number }>;
}

function load(name: string): string {
  return sqlFile(`stores/sql/${name}.sql`);
}

/**
 * Builds a `DedupStore` over a dialect's runner; every failure becomes `StorageUnavailable`.
 *
 * @example
 * sqlDedupStore({ run: async (name, params) => … })
 */
export function sqlDedupStore(runner: SqlRunner): DedupStore {
  const run: SqlRunner['run'] = async (name, params) => {
    try {
      return await runner.run(name, params);
    } catch (error) {
      throw error instanceof StorageUnavailable ? error : new StorageUnavailable(error);
    }
  };
  const get = async (eventId: string): Promise<DedupRecord | undefined> => {
    const { rows } = await run('select', [eventId]);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  };
  return {
    async claim(eventId, now, staleAfterMs) {
      // Two tries cover a record released between our insert attempt and our read.
      for (let tries = 0; tries < 2; tries++) {
        const { rows } = await run('claim', [eventId, now, now - staleAfterMs]);
        if (rows[0] !== undefined) return { kind: 'claimed', attempt: Number(rows[0].attempt) };
        const record = await get(eventId);
        if (record !== undefined) return claimOutcome(record);
      }
      throw new StorageUnavailable(new Error(`claim of ${eventId} kept racing with release`));
    },
    async markProcessing(eventId, attempt, answer, now) {
      return (await run('markProcessing', [eventId, attempt, answer.status, answer.body, now])).changes === 1;
    },
    async markDone(eventId, attempt, now, answer) {
      return (
        (await run('markDone', [eventId, attempt, now, answer?.status ?? null, answer?.body ?? null])).changes === 1
      );
    },
    async markFailed(eventId, attempt, error, now) {
      return (await run('markFailed', [eventId, attempt, error.slice(0, 1000), now])).changes === 1;
    },
    async release(eventId, attempt) {
      await run('release', [eventId, attempt]);
    },
    get,
    async prune(before) {
      return (await run('prune', [before])).changes;
    },
  };
}

function toRecord(row: Record<string, unknown>): DedupRecord {
  const status = row.answer_status;
  return {
    eventId: String(row.event_id),
    state: row.state as DedupState,
    attempt: Number(row.attempt),
    // PostgreSQL hands BIGINT back as a string, SQLite as a number.
    answer:
      status === null || status === undefined
        ? undefined
        : { status: Number(status), body: String(row.answer_body ?? '') },
    error: row.error === null || row.error === undefined ? undefined : String(row.error),
    updatedAt: Number(row.updated_at),
  };
}
