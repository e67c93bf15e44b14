// Row ↔ record mapping of a replay.
import { num, numOrNull, type Row } from '../row-values.ts';
import type { ReplayRow } from './replay-store.ts';

export function replayFromRow(r: Row): ReplayRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    endpointId: r.endpoint_id ?? null,
    kind: r.kind,
    sinceMs: numOrNull(r.since_ms),
    untilMs: numOrNull(r.until_ms),
    includeSkipped: Boolean(num(r.include_skipped)),
    selected: num(r.selected),
    attempted: num(r.attempted),
    succeeded: num(r.succeeded),
    failed: num(r.failed),
    createdAt: num(r.created_at),
  };
}

export function replayToRow(r: ReplayRow): Row {
  return {
    id: r.id,
    tenant_id: r.tenantId,
    endpoint_id: r.endpointId,
    since_ms: r.sinceMs,
    until_ms: r.untilMs,
    include_skipped: r.includeSkipped ? 1 : 0,
    selected: r.selected,
    kind: r.kind,
    created_at: r.createdAt,
  };
}
