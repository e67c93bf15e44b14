// Hookline's rows in Svix's shapes (camelCase, ISO timestamps, numeric enums; every field the official SDKs read).
import type {
  DeliveryStatus,
  Endpoint,
  EndpointMessage,
  EventRecord,
  MessageAttempt,
  MessageDestination,
  MessageLabels,
  Tenant,
} from '@hookline/core';
import type { EventTypeView } from '../../event-types/event-type-registry.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Svix's list answer; `iterator` is the cursor of the next page (null on the last one). */
export function listOut<T>(
  data: T[],
  next: string | null,
): { data: T[]; iterator: string | null; prevIterator: null; done: boolean } {
  return { data, iterator: next, prevIterator: null, done: next === null };
}

export function applicationOut(t: Tenant) {
  return {
    id: t.id,
    uid: t.uid ?? null,
    name: t.name,
    metadata: t.metadata ?? {},
    rateLimit: t.appRateLimit ?? null,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

export function endpointOut(e: Endpoint) {
  return {
    id: e.id,
    uid: e.uid ?? null,
    url: e.url,
    description: e.description,
    version: 1,
    filterTypes: e.eventTypes.length ? e.eventTypes : null,
    channels: e.channels?.length ? e.channels : null,
    disabled: e.status === 'paused',
    rateLimit: e.rateLimitPerS ?? null,
    metadata: e.metadata ?? {},
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** The payload a message was sent with: the body itself in the raw format, the envelope's `data` otherwise. */
export function payloadOf(ev: EventRecord): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ev.body.toString('utf8'));
  } catch {
    return null;
  }
  if (ev.payloadFormat !== 'raw' && parsed && typeof parsed === 'object' && Object.hasOwn(parsed, 'data'))
    return (parsed as { data: unknown }).data;
  return parsed;
}

export function messageOut(ev: EventRecord, labels: MessageLabels, withContent = true) {
  return {
    id: ev.id,
    eventId: ev.eventId === ev.id ? null : ev.eventId,
    eventType: ev.type,
    payload: withContent ? payloadOf(ev) : {},
    channels: labels.channels,
    tags: labels.tags,
    timestamp: iso(ev.createdAt),
  };
}

/** Svix's MessageStatus: 0 success, 1 pending, 2 fail, 3 sending. */
export function messageStatus(s: DeliveryStatus): 0 | 1 | 2 | 3 {
  if (s === 'succeeded') return 0;
  if (s === 'failed' || s === 'skipped') return 2;
  if (s === 'delivering') return 3;
  return 1;
}
const STATUS_TEXT = ['success', 'pending', 'fail', 'sending'] as const;

export function attemptOut({ attempt: a, eventPk, url }: MessageAttempt) {
  const status = a.outcome === 'success' ? 0 : 2;
  return {
    id: a.id,
    msgId: eventPk,
    endpointId: a.endpointId,
    url,
    response: a.responseExcerpt ?? a.errorMessage ?? '',
    responseStatusCode: a.responseStatus ?? 0,
    responseDurationMs: a.durationMs,
    status,
    statusText: STATUS_TEXT[status],
    triggerType: a.trigger === 'scheduled' ? 0 : 1,
    timestamp: iso(a.startedAt),
  };
}

/** A message's state on one endpoint (GET …/msg/{msg}/endpoint). */
export function messageEndpointOut(m: MessageDestination) {
  const status = messageStatus(m.status);
  return {
    ...endpointOut(m.endpoint),
    status,
    statusText: STATUS_TEXT[status],
    nextAttempt: m.nextAttemptAt === null ? null : iso(m.nextAttemptAt),
  };
}

/** A message as one endpoint saw it (GET …/endpoint/{endpoint}/msg). */
export function endpointMessageOut(m: EndpointMessage, withContent = true) {
  const status = messageStatus(m.status);
  return {
    ...messageOut(m.event, m, withContent),
    status,
    statusText: STATUS_TEXT[status],
    nextAttempt: m.nextAttemptAt === null ? null : iso(m.nextAttemptAt),
  };
}

export function eventTypeOut(t: EventTypeView) {
  const schemas = Object.fromEntries(
    Object.entries(t.versions)
      .filter(([, v]) => v.schema !== true)
      .map(([k, v]) => [k, v.schema]),
  );
  return {
    name: t.name,
    description: t.description,
    schemas: Object.keys(schemas).length ? schemas : null,
    archived: t.svix?.archived ?? false,
    deprecated: t.svix?.deprecated ?? false,
    featureFlag: t.svix?.featureFlag ?? null,
    groupName: t.svix?.groupName ?? null,
    createdAt: iso(t.updatedAt),
    updatedAt: iso(t.updatedAt),
  };
}
