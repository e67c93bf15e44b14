// An endpoint patch written inside the caller's transaction: updateEndpoint's, and a catch-up reactivation's.
import { endIncidentByHand } from '../endpoint-incidents.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import { type EndpointPatch, PATCHABLE_ENDPOINT_FIELDS, type StoredEndpoint } from './catalog-store.ts';
import { endpointFromRow, endpointOptionsToRow, endpointToRow } from './endpoint-rows.ts';

/** updateEndpoint's writes inside the caller's transaction (reactivateWithCatchUp's too). */
export async function writeEndpointPatch(
  tx: SqlExecutor,
  tenantId: string,
  id: string,
  patch: EndpointPatch,
  now: number,
): Promise<StoredEndpoint | null> {
  const [r] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
  if (!r) return null;
  const cur = endpointFromRow(r);
  const next: StoredEndpoint = { ...cur, updatedAt: now, version: cur.version + 1 };
  for (const k of PATCHABLE_ENDPOINT_FIELDS)
    if (patch[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = patch[k];
  if (next.status !== 'paused') next.pauseReason = null;
  if (patch.clearHealth) {
    next.failingSince = null;
    next.consecutiveFailedEvents = 0;
    if (next.status === 'degraded') next.status = 'active';
  }
  await tx.run('update-endpoint', { ...endpointToRow(next), now });
  // Reactivated by hand, or cleared by a new URL: the endpoint's incident ends here (docs/rules.md#notifications).
  if (cur.status !== 'active' && next.status === 'active') await endIncidentByHand(tx, id, now);
  await tx.run('set-endpoint-options', endpointOptionsToRow(next));
  // The pause triggers of migration 010 keep paused_at; the row read back carries it.
  const [back] = await tx.all('get-endpoint', { tenant_id: tenantId, id });
  return { ...next, pausedAt: endpointFromRow(back).pausedAt };
}
