// The Svix part's message reads (message-read-store.ts): one statement each, the rows mapped by the shared row mappers
// plus the delivery's state columns (d_…), each status through the queue's lease view.
import type { DeliveryStatus } from '../../domain.ts';
import { endpointFromRow } from '../catalog/endpoint-rows.ts';
import { eventFromRow } from '../events/event-rows.ts';
import { page } from '../listing.ts';
import type { Page } from '../page.ts';
import { attemptFromRow } from '../queue/delivery-rows.ts';
import type { Row } from '../row-values.ts';
import type { StoreScope } from '../store-scope.ts';
import type {
  DeliveryState,
  DeliveryWindow,
  EndpointMessage,
  MessageAttempt,
  MessageDestination,
} from './svix-store.ts';

const stateOf = ({ leases }: StoreScope, r: Row): DeliveryState => ({
  deliveryId: String(r.d_id),
  status: leases.status(String(r.d_id), r.d_status as DeliveryStatus),
  nextAttemptAt: r.d_next_attempt_at === null || r.d_next_attempt_at === undefined ? null : Number(r.d_next_attempt_at),
});
const labelsOf = (v: unknown): string[] | null => (v === null || v === undefined ? null : JSON.parse(String(v)));
const attemptOf = (r: Row): MessageAttempt => ({
  attempt: attemptFromRow(r),
  eventPk: String(r.d_event_pk),
  url: r.e_url === null || r.e_url === undefined ? '' : String(r.e_url),
});
const windowParams = (w: DeliveryWindow, cursor: string | null, limit: number) => ({
  since: w.since ?? null,
  until: w.until ?? null,
  before: cursor ?? '~',
  limit: limit + 1,
});

export async function messageDestinations(
  s: StoreScope,
  tenantId: string,
  eventPk: string,
): Promise<MessageDestination[]> {
  const rs = await s.db.all('message-destinations', { tenant_id: tenantId, event_pk: eventPk });
  return rs.map((r) => ({ ...stateOf(s, r), endpoint: endpointFromRow(r) }));
}

export async function messageAttempts(
  { db }: StoreScope,
  tenantId: string,
  eventPk: string,
  endpointId: string | null,
): Promise<MessageAttempt[]> {
  return (await db.all('message-attempts', { tenant_id: tenantId, event_pk: eventPk, endpoint_id: endpointId })).map(
    attemptOf,
  );
}

export async function endpointAttempts(
  { db }: StoreScope,
  tenantId: string,
  endpointId: string,
  window: DeliveryWindow,
  cursor: string | null,
  limit: number,
): Promise<Page<{ id: string; attempts: MessageAttempt[] }>> {
  const rs = await db.all('endpoint-attempts', {
    tenant_id: tenantId,
    endpoint_id: endpointId,
    ...windowParams(window, cursor, limit),
  });
  // Rows come by delivery, newest first: one item per delivery, its attempts (if any) in the rows' order.
  const items: Array<{ id: string; attempts: MessageAttempt[] }> = [];
  for (const r of rs) {
    const id = String(r.d_id);
    if (items.at(-1)?.id !== id) items.push({ id, attempts: [] });
    if (r.id !== null && r.id !== undefined) items.at(-1)!.attempts.push(attemptOf(r));
  }
  return page(items, limit);
}

export async function endpointMessages(
  s: StoreScope,
  tenantId: string,
  endpointId: string,
  window: DeliveryWindow,
  cursor: string | null,
  limit: number,
): Promise<Page<EndpointMessage & { id: string }>> {
  const rs = await s.db.all('endpoint-messages', {
    tenant_id: tenantId,
    endpoint_id: endpointId,
    ...windowParams(window, cursor, limit),
  });
  return page(
    rs.map((r) => ({
      id: String(r.d_id),
      ...stateOf(s, r),
      event: eventFromRow(r),
      channels: labelsOf(r.label_channels),
      tags: labelsOf(r.label_tags),
    })),
    limit,
  );
}
