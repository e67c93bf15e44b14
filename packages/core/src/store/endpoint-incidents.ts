// Endpoint incidents (docs/rules.md#notifications): the owners are told per incident, not per health flip. Written
// inside the transactions that change health, reactivate an endpoint, or record a notice.
import type { Endpoint } from '../domain.ts';
import { healthEntry, iso } from './notification-rows.ts';
import type { Notice } from './outbox/outbox-store.ts';
import { insertOutbox } from './outbox-writes.ts';
import type { HealthTransition } from './queue/queue-store.ts';
import type { SqlExecutor } from './sql-driver.ts';

/** An endpoint's latest incident, as its row holds it. */
interface Incident {
  endpointId: string;
  tenantId: string;
  /** The notice that opened it: endpoint.degraded, or endpoint.paused for a pause of a healthy endpoint. */
  noticeId: string | null;
  pausedNoticeId: string | null;
  openedAt: number;
  /** Its last recovery, while the endpoint.recovered row `recoveryId` waits out the reopen window (kept once ended). */
  recoveredAt: number | null;
  recoveryId: string | null;
  /** Null while open. */
  endedAt: number | null;
}

type Row = Record<string, any>;
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function fromRow(r: Row): Incident {
  return {
    endpointId: r.endpoint_id,
    tenantId: r.tenant_id,
    noticeId: r.notice_id ?? null,
    pausedNoticeId: r.paused_notice_id ?? null,
    openedAt: Number(r.opened_at),
    recoveredAt: numOrNull(r.recovered_at),
    recoveryId: r.recovery_id ?? null,
    endedAt: numOrNull(r.ended_at),
  };
}

async function openIncident(tx: SqlExecutor, endpointId: string): Promise<Incident | null> {
  const [r] = await tx.all('get-endpoint-incident', { endpoint_id: endpointId });
  const inc = r ? fromRow(r) : null;
  return inc && inc.endedAt === null ? inc : null;
}

function put(tx: SqlExecutor, i: Incident): Promise<number> {
  return tx.run('put-endpoint-incident', {
    endpoint_id: i.endpointId,
    tenant_id: i.tenantId,
    notice_id: i.noticeId,
    paused_notice_id: i.pausedNoticeId,
    opened_at: i.openedAt,
    recovered_at: i.recoveredAt,
    recovery_id: i.recoveryId,
    ended_at: i.endedAt,
  });
}

/**
 * Whether an incident whose recovery is still untold is the same incident at `now`: its endpoint.recovered row is
 * taken back if nothing has seen it yet and it is not yet due (the reopen window has not passed since the recovery).
 * A recovery already claimed by a drainer, or due, is told; the incident it ends is then over.
 */
async function withdrawRecovery(tx: SqlExecutor, inc: Incident, now: number): Promise<boolean> {
  if (inc.recoveryId === null) return true;
  return (await tx.run('withdraw-outbox', { id: inc.recoveryId, now })) > 0;
}

/** An incident that ended by a recovery nobody took back: its notices are resolved at the recovery. */
async function endRecovered(tx: SqlExecutor, inc: Incident): Promise<void> {
  const at = inc.recoveredAt ?? inc.openedAt;
  await put(tx, { ...inc, endedAt: at });
  await resolve(tx, inc, at);
}

function resolve(tx: SqlExecutor, inc: Incident, at: number): Promise<number> {
  return tx.run('resolve-notices', {
    notice_id: inc.noticeId,
    paused_notice_id: inc.pausedNoticeId,
    resolved_at: at,
  });
}

/**
 * The notification of one health transition, decided per incident: a degradation opens an incident (one
 * endpoint.degraded notice) unless it begins within the reopen window after the incident's recovery, which it then
 * reopens silently, taking the untold recovery back; a pause is always told (it needs the owners) and belongs to the
 * open incident, or opens one; a recovery is written due at `at + reopenWindowMs`, and told only if no degradation
 * or pause takes it back before then. `reopenWindowMs` matters for degradations (said in their notice) and recoveries.
 */
export async function writeHealthNotice(
  tx: SqlExecutor,
  t: HealthTransition,
  ep: Pick<Endpoint, 'url'> | null,
  reopenWindowMs: number,
): Promise<void> {
  const entry = healthEntry(t, ep);
  if (entry === null) return;
  const open = await openIncident(tx, t.endpointId);
  const fresh = (noticeId: string, pausedNoticeId: string | null): Incident => ({
    endpointId: t.endpointId,
    tenantId: t.tenantId,
    noticeId,
    pausedNoticeId,
    openedAt: t.at,
    recoveredAt: null,
    recoveryId: null,
    endedAt: null,
  });
  switch (entry.kind) {
    case 'endpoint.degraded': {
      if (open && open.recoveryId !== null && (await withdrawRecovery(tx, open, t.at))) {
        await put(tx, { ...open, recoveredAt: null, recoveryId: null });
        return;
      }
      if (open) await endRecovered(tx, open);
      await insertOutbox(tx, { ...entry, data: { ...entry.data, reopen_window_ms: reopenWindowMs } });
      await put(tx, fresh(entry.id, null));
      return;
    }
    case 'endpoint.paused': {
      await insertOutbox(tx, entry);
      if (open && (await withdrawRecovery(tx, open, t.at))) {
        await put(tx, { ...open, pausedNoticeId: entry.id, recoveredAt: null, recoveryId: null });
        return;
      }
      if (open) await endRecovered(tx, open);
      await put(tx, fresh(entry.id, entry.id));
      return;
    }
    case 'endpoint.recovered': {
      // A degradation from before incidents were kept has no row: it is one now, its notice unknown.
      const inc: Incident = open ?? { ...fresh('', null), noticeId: null };
      await insertOutbox(
        tx,
        { ...entry, data: { ...entry.data, degraded_at: iso(inc.openedAt), held_ms: reopenWindowMs } },
        t.at + reopenWindowMs,
      );
      await put(tx, { ...inc, recoveredAt: t.at, recoveryId: entry.id });
      return;
    }
  }
}

/**
 * An endpoint reactivated by hand, or cleared by a new URL (docs/rules.md#health-clear): its open incident ends now
 * and its notices are resolved. Nothing is sent: the owners did it. A failure afterwards opens a new incident.
 */
export async function endIncidentByHand(tx: SqlExecutor, endpointId: string, now: number): Promise<void> {
  const open = await openIncident(tx, endpointId);
  if (!open) return;
  await put(tx, { ...open, endedAt: now });
  await resolve(tx, open, now);
}

/**
 * Before a notice is recorded: an endpoint.recovered notice ends its incident (the recovery held), resolving the
 * incident's notices; a degraded or paused notice recorded after its incident ended is resolved as it is written.
 * Returns the notice's resolved_at.
 */
export async function incidentOfNotice(tx: SqlExecutor, n: Omit<Notice, 'environment' | 'resolvedAt'>) {
  if (!n.kind.startsWith('endpoint.') || n.subjectId === null) return null;
  const [r] = await tx.all('get-endpoint-incident', { endpoint_id: n.subjectId });
  if (!r) return null;
  const inc = fromRow(r);
  if (n.kind === 'endpoint.recovered') {
    if (inc.recoveryId === n.id && inc.endedAt === null) await endRecovered(tx, inc);
    return null;
  }
  return inc.endedAt !== null && (n.id === inc.noticeId || n.id === inc.pausedNoticeId) ? inc.endedAt : null;
}
