// Human renderings of the API's JSON (tenants, endpoints, deliveries, attempts) shared by the client commands.
import { formatDuration } from '@hookline/core/config';
import type { Column } from './table.ts';

export type Json = Record<string, unknown>;
export interface Page<T = Json> {
  items: T[];
  next_cursor?: string | null;
}

/** '2026-01-05T12:00:03.120Z' → '2026-01-05 12:00:03Z'; null → '-'. */
export function shortTime(iso: unknown): string {
  if (typeof iso !== 'string') return '-';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export const TENANT_COLUMNS: Column<Json>[] = [
  { header: 'id', value: (t) => t.id as string },
  { header: 'name', value: (t) => t.name as string, max: 40 },
  { header: 'environment', value: (t) => t.environment as string },
  { header: 'owners', value: (t) => (t.owner_emails as string[] | undefined)?.join(', '), max: 50 },
  { header: 'created', value: (t) => shortTime(t.created_at) },
];

export const ENDPOINT_COLUMNS: Column<Json>[] = [
  { header: 'id', value: (e) => e.id as string },
  {
    header: 'status',
    value: (e) => (e.pause_reason ? `${e.status as string} (${e.pause_reason as string})` : (e.status as string)),
  },
  { header: 'policy', value: (e) => e.policy as string },
  { header: 'url', value: (e) => e.url as string, max: 60 },
  {
    header: 'events',
    value: (e) => ((e.event_types as string[] | undefined)?.length ? (e.event_types as string[]).join(',') : '*'),
    max: 30,
  },
];

export const DELIVERY_COLUMNS: Column<Json>[] = [
  { header: 'id', value: (d) => d.id as string },
  { header: 'status', value: (d) => d.status as string },
  { header: 'event', value: (d) => d.event_id as string, max: 32 },
  { header: 'type', value: (d) => d.event_type as string, max: 32 },
  { header: 'endpoint', value: (d) => d.endpoint_id as string },
  { header: 'attempts', value: (d) => d.attempt_count as number, align: 'right' },
  { header: 'last attempt', value: (d) => shortTime(d.last_attempt_at) },
  {
    header: 'next / reason',
    value: (d) =>
      d.status === 'pending' || d.status === 'held'
        ? shortTime(d.next_attempt_at)
        : (d.terminal_reason as string | null),
    max: 60,
  },
  {
    // The latest answer (docs/rules.md#dead-letter): `503 upstream down`, or the error when nothing answered.
    header: 'last response',
    value: (d) => {
      const r = d.last_response as { status: number | null; excerpt: string | null; error: string | null } | null;
      if (!r) return null;
      const body = (r.excerpt ?? '').replace(/\s+/g, ' ').trim();
      return r.status === null ? r.error : `${r.status}${body ? ` ${body}` : ''}`;
    },
    max: 48,
  },
];

/** What came back: `503`, `timeout`, `connection` … */
export function attemptResponse(a: Json): string {
  if (a.response_status !== null && a.response_status !== undefined && a.error_class !== 'timeout')
    return String(a.response_status);
  return (a.error_class as string | null) ?? '-';
}

export const ATTEMPT_COLUMNS: Column<Json>[] = [
  { header: 'n', value: (a) => a.n as number, align: 'right' },
  { header: 'started', value: (a) => shortTime(a.started_at) },
  { header: 'trigger', value: (a) => a.trigger as string },
  // The ladder that scheduled it, and how long it was held (breaker open) before it ran.
  { header: 'ladder', value: (a) => (a.ladder as string | null) ?? '-' },
  {
    header: 'held',
    value: (a) =>
      typeof a.held_from === 'string' && typeof a.held_until === 'string'
        ? formatDuration(Date.parse(a.held_until) - Date.parse(a.held_from))
        : '-',
    align: 'right',
  },
  { header: 'response', value: attemptResponse },
  { header: 'outcome', value: (a) => a.outcome as string },
  { header: 'took', value: (a) => formatDuration(Number(a.duration_ms ?? 0)), align: 'right' },
  { header: 'error', value: (a) => a.error_message as string | null, max: 60 },
  // The attempt's trace (docs/observability.md#traces), to look it up in the tracing backend.
  { header: 'trace', value: (a) => (a.trace_id as string | null | undefined) ?? '-' },
];
