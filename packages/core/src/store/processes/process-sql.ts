// The process part's SQL: the settings rows running processes publish.

import type { StoreScope } from '../store-scope.ts';
import type { ProcessRecord } from './process-store.ts';

export async function putProcess({ db }: StoreScope, r: ProcessRecord): Promise<void> {
  await db.run('put-process', {
    process_id: r.processId,
    role: r.role,
    epoch: r.epoch,
    settings: JSON.stringify(r.settings),
    started_at: r.startedAt,
    seen_at: r.seenAt,
  });
}

export async function touchProcess({ db }: StoreScope, processId: string, seenAt: number): Promise<boolean> {
  return (await db.run('touch-process', { process_id: processId, seen_at: seenAt })) > 0;
}

export async function liveProcesses({ db }: StoreScope, since: number): Promise<ProcessRecord[]> {
  await db.run('purge-processes', { since });
  const rows = await db.all('live-processes', { since });
  return rows.map((r) => ({
    processId: r.process_id,
    role: r.role,
    epoch: Number(r.epoch),
    settings: JSON.parse(r.settings) as Record<string, string>,
    // BIGINT columns arrive as strings from PostgreSQL.
    startedAt: Number(r.started_at),
    seenAt: Number(r.seen_at),
  }));
}

export async function removeProcess(
  { db }: StoreScope,
  processId: string,
  options: { others?: boolean } = {},
): Promise<void> {
  if (options.others) await db.run('remove-other-processes', { process_id: processId });
  else await db.run('remove-process', { process_id: processId });
}
