// Row ↔ record mapping of notices, outbox rows and failure summaries.
import type { FailureSummaryState } from '../failure-summary.ts';
import { json, num, numOrNull, type Row } from '../row-values.ts';
import type { Notice, OutboxEntry, OutboxRow } from './outbox-store.ts';

export function noticeFromRow(r: Row): Notice {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    environment: r.environment,
    kind: r.kind,
    subjectId: r.subject_id ?? null,
    message: r.message,
    data: json(r.data, {}),
    createdAt: num(r.created_at),
    resolvedAt: numOrNull(r.resolved_at),
  };
}

export function noticeToRow(n: Omit<Notice, 'environment'>): Row {
  return {
    id: n.id,
    tenant_id: n.tenantId,
    kind: n.kind,
    subject_id: n.subjectId,
    message: n.message,
    data: JSON.stringify(n.data),
    created_at: n.createdAt,
    resolved_at: n.resolvedAt,
  };
}

export function outboxToRow(e: OutboxEntry, dueAt = e.createdAt): Row {
  return {
    id: e.id,
    tenant_id: e.tenantId,
    kind: e.kind,
    subject_id: e.subjectId,
    endpoint_id: e.endpointId,
    data: JSON.stringify(e.data),
    due_at: dueAt,
    now: e.createdAt,
  };
}

export function outboxFromRow(r: Row): OutboxRow {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    kind: r.kind,
    subjectId: r.subject_id ?? null,
    endpointId: r.endpoint_id ?? null,
    data: json(r.data, {}),
    createdAt: num(r.created_at),
    status: r.status,
    tries: num(r.tries),
    dueAt: num(r.due_at),
    leaseUntil: numOrNull(r.lease_until),
    lastError: r.last_error ?? null,
  };
}

export function failureSummaryFromRow(r: Row): FailureSummaryState {
  return {
    count: num(r.count),
    money: num(r.money),
    first: json(r.first_failures, []),
    firstAt: numOrNull(r.first_at),
    lastAt: numOrNull(r.last_at),
    lastSentAt: numOrNull(r.last_sent_at),
  };
}

export function failureSummaryToRow(endpointId: string, s: FailureSummaryState): Row {
  return {
    endpoint_id: endpointId,
    count: s.count,
    money: s.money,
    first_failures: JSON.stringify(s.first),
    first_at: s.firstAt,
    last_at: s.lastAt,
    last_sent_at: s.lastSentAt,
  };
}
