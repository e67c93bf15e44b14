// Row ↔ record mapping of a breaker.
import { num, numOrNull, type Row } from '../row-values.ts';
import type { BreakerRow } from './breaker-store.ts';

export function breakerFromRow(r: Row): BreakerRow {
  return {
    scopeKey: r.scope_key,
    tenantId: r.tenant_id,
    state: r.state,
    pauseMs: num(r.pause_ms),
    openedAt: numOrNull(r.opened_at),
    nextProbeAt: numOrNull(r.next_probe_at),
    probeDeliveryId: r.probe_delivery_id ?? null,
    updatedAt: num(r.updated_at),
  };
}

export function breakerToRow(b: BreakerRow): Row {
  return {
    scope_key: b.scopeKey,
    tenant_id: b.tenantId,
    state: b.state,
    pause_ms: b.pauseMs,
    opened_at: b.openedAt,
    next_probe_at: b.nextProbeAt,
    probe_delivery_id: b.probeDeliveryId,
    updated_at: b.updatedAt,
  };
}
