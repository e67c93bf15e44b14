// The inbox logic both SQL stores share; SQLite and PostgreSQL differ only in schema, claim and how a statement runs.
import { StorageUnavailable } from '../errors.ts';
import { sqlFile } from '../sql-files.generated.ts';
import { type InboxEntry, type InboxState, type InboxStore, MAX_ERROR_LENGTH } from './inbox-store.ts';

const load = (name: string): string => sqlFile(`inbox/sql/${name}.sql`);

/** The shared statements in `./sql/*.sql`; `claim` and `schema` come per dialect. */
const shared = {
  accept: load('accept'),
  select: load('select'),
  complete: load('complete'),
  reschedule: load('reschedule'),
  bury: load('bury'),
  revive: load('revive'),
  deadLetters: load('dead-letters'),
  prune: load('prune'),
};

export type InboxStatementName = keyof typeof shared | 'claim';

/** The statements for one dialect. */
export function inboxStatements(
  dialect: 'sqlite' | 'postgres',
): Readonly<Record<InboxStatementName | 'schema', string>> {
  return Object.freeze({ ...shared, claim: load(`claim-${dialect}`), schema: load(`schema-${dialect}`) });
}

/** Runs one named statement with `$n` parameters; returns rows and the affected-row count. */
export interface SqlInboxRunner {
  run(
    name: InboxStatementName,
    params: readonly unknown[],
  ): Promise<{ rows: Array<Record<string, unknown>>; changes: number }>;
}

/**
 * Builds an `InboxStore` over a dialect's runner; every failure becomes `StorageUnavailable`.
 *
 * @example
 * sqlInboxStore({ run: async (name, params) => … })
 */
export function sqlInboxStore(runner: SqlInboxRunner): InboxStore {
  const run: SqlInboxRunner['run'] = async (name, params) => {
    try {
      return await runner.run(name, params);
    } catch (error) {
      throw error instanceof StorageUnavailable ? error : new StorageUnavailable(error);
    }
  };
  const get = async (eventId: string): Promise<InboxEntry | undefined> => {
    const { rows } = await run('select', [eventId]);
    return rows[0] === undefined ? undefined : toEntry(rows[0]);
  };
  const changed = async (name: InboxStatementName, params: readonly unknown[]) =>
    (await run(name, params)).changes === 1;
  return {
    async accept(event) {
      const body = Buffer.from(event.body.buffer, event.body.byteOffset, event.body.byteLength);
      const params = [
        event.eventId,
        event.type,
        event.deliveryId ?? null,
        event.scheme,
        JSON.stringify(event.headers),
        body,
        event.receivedAt,
      ];
      // Two tries cover a duplicate pruned between our insert and our read.
      for (let tries = 0; tries < 2; tries++) {
        const { rows } = await run('accept', params);
        if (rows.length === 1) return { kind: 'accepted' };
        const existing = await get(event.eventId);
        if (existing !== undefined) return { kind: 'duplicate', state: existing.state };
      }
      throw new StorageUnavailable(new Error(`accept of ${event.eventId} kept racing with prune`));
    },
    async claim(now, leaseMs, limit) {
      const { rows } = await run('claim', [now, leaseMs, limit]);
      return rows.map(toEntry).sort((a, b) => a.receivedAt - b.receivedAt);
    },
    complete: (eventId, attempt, now) => changed('complete', [eventId, attempt, now]),
    reschedule: (eventId, attempt, error, at, now) =>
      changed('reschedule', [eventId, attempt, error.slice(0, MAX_ERROR_LENGTH), at, now]),
    bury: (eventId, attempt, error, now) => changed('bury', [eventId, attempt, error.slice(0, MAX_ERROR_LENGTH), now]),
    revive: (eventId, now) => changed('revive', [eventId, now]),
    async deadLetters(limit) {
      return (await run('deadLetters', [limit])).rows.map(toEntry);
    },
    get,
    async prune(before, limit) {
      return (await run('prune', [before, limit])).changes;
    },
  };
}

function toEntry(row: Record<string, unknown>): InboxEntry {
  // PostgreSQL hands BIGINT back as a string, SQLite as a number; both hand bytes back as a Buffer.
  return {
    eventId: String(row.event_id),
    type: String(row.event_type),
    deliveryId: row.delivery_id === null || row.delivery_id === undefined ? undefined : String(row.delivery_id),
    scheme: row.scheme as InboxEntry['scheme'],
    headers: JSON.parse(String(row.headers)) as Record<string, string>,
    body: row.body as Buffer,
    receivedAt: Number(row.received_at),
    state: row.state as InboxState,
    attempt: Number(row.attempt),
    failures: Number(row.failures),
    availableAt: Number(row.available_at),
    updatedAt: Number(row.updated_at),
    error: row.error === null || row.error === undefined ? undefined : String(row.error),
  };
}
