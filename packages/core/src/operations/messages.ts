// Messages of the Svix-compatible API (docs/svix-compatibility.md#messages): an event accepted with the tenant's
// payload format, its channels and tags kept beside it, read back by Hookline's id or the caller's event id, listed
// newest first, read with its destinations and attempts or by endpoint (one store read each), and resent to one
// endpoint as a new delivery (a succeeded one too: Svix's resend).
import type { Actor } from '../audit/audit-types.ts';
import type { Delivery, EventRecord } from '../domain.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { expectAccepted } from '../ingest.ts';
import type {
  DeliveryWindow,
  EndpointMessage,
  MessageAttempt,
  MessageDestination,
  MessageFilter,
  MessageLabels,
  Page,
  ReplayRow,
} from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

export interface MessageInput {
  type: string;
  data: unknown;
  /** The caller's id for the message (idempotent on it); default Hookline's event id. */
  event_id?: string;
  channels?: string[];
  tags?: string[];
}

export type Message = { event: EventRecord; deliveries: Delivery[] } & MessageLabels;

export class MessageOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /**
   * Accepts a message: an event whose attempts send the payload itself when the tenant's payload format is `raw`
   * (else Hookline's envelope), to the endpoints its type and channels reach (docs/rules.md#channels).
   */
  async send(tenantId: string, input: MessageInput): Promise<Message & { created: boolean }> {
    const p = this.#p;
    const tenant = await p.store.catalog.getTenant(tenantId);
    if (!tenant) throw fail('tenant_not_found');
    const channels = input.channels?.length ? input.channels : undefined;
    const r = expectAccepted(
      await p.ingest.accept(tenantId, {
        type: input.type,
        data: input.data,
        ...(input.event_id !== undefined ? { event_id: input.event_id } : {}),
        ...(channels ? { channels } : {}),
        payload_format: tenant.payloadFormat ?? 'envelope',
      }),
    );
    const labels: MessageLabels = { channels: channels ?? null, tags: input.tags?.length ? input.tags : null };
    // Kept after the event commits: a crash between the two leaves a message without its labels, never labels
    // without a message; a repeat of the same request writes nothing new (the first labels win).
    if (r.kind === 'created') await p.store.svix.putMessageLabels(r.event.id, tenantId, labels);
    if (r.kind === 'created' && r.deliveries.length) p.dispatcher.wake();
    const kept = r.kind === 'created' ? labels : await p.store.svix.getMessageLabels(r.event.id);
    return { event: r.event, deliveries: r.deliveries, ...kept, created: r.kind === 'created' };
  }

  /** A message by Hookline's id (evt_…) or, failing that, the caller's event id; 404 message_not_found. */
  async get(tenantId: string, ref: string): Promise<Message> {
    const store = this.#p.store;
    const found = (await store.svix.getEventByPk(tenantId, ref)) ?? (await store.events.getEvent(tenantId, ref));
    if (!found) throw fail('message_not_found');
    return { ...found, ...(await store.svix.getMessageLabels(found.event.id)) };
  }

  /** The tenant's messages newest first. */
  list(
    tenantId: string,
    filter: MessageFilter,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: string; event: EventRecord } & MessageLabels>> {
    return this.#p.store.svix.listMessages(tenantId, filter, cursor, limit);
  }

  /** The message's deliveries, oldest first, each with its endpoint; 404 message_not_found. */
  async destinations(tenantId: string, ref: string): Promise<MessageDestination[]> {
    const msg = await this.get(tenantId, ref);
    return this.#p.store.svix.messageDestinations(tenantId, msg.event.id);
  }

  /**
   * Every attempt of the message (to `endpointId` only, when given): the newest delivery first, each delivery's
   * attempts newest first; 404 message_not_found.
   */
  async attempts(tenantId: string, ref: string, endpointId: string | null = null): Promise<MessageAttempt[]> {
    const msg = await this.get(tenantId, ref);
    return this.#p.store.svix.messageAttempts(tenantId, msg.event.id, endpointId);
  }

  /** A page of the endpoint's deliveries in the window, newest first, each with its attempts newest first. */
  endpointAttempts(
    tenantId: string,
    endpointId: string,
    window: DeliveryWindow,
    cursor: string | null,
    limit: number,
  ): Promise<Page<{ id: string; attempts: MessageAttempt[] }>> {
    return this.#p.store.svix.endpointAttempts(tenantId, endpointId, window, cursor, limit);
  }

  /** A page of the endpoint's deliveries in the window, newest first, each with its message. */
  endpointMessages(
    tenantId: string,
    endpointId: string,
    window: DeliveryWindow,
    cursor: string | null,
    limit: number,
  ): Promise<Page<EndpointMessage & { id: string }>> {
    return this.#p.store.svix.endpointMessages(tenantId, endpointId, window, cursor, limit);
  }

  /**
   * Sends the message again to one endpoint: a new delivery, due now, whatever became of the earlier ones (Svix's
   * resend; Hookline's own replays keep their rules). 404 message_not_found / endpoint_not_found, 409 endpoint_paused.
   */
  async resend(tenantId: string, ref: string, endpointId: string, actor?: Actor): Promise<Delivery> {
    const p = this.#p;
    const msg = await this.get(tenantId, ref);
    const ep = await p.store.catalog.getEndpoint(tenantId, endpointId);
    if (!ep) throw fail('endpoint_not_found');
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const now = p.clock.now();
    const id = newId('dlv', now);
    // A single replay of its own: the attempt is a manual one (trigger `replay`), and a failure is not retried.
    const replay: ReplayRow = {
      id: newId('rpl', now),
      tenantId,
      endpointId,
      kind: 'single',
      sinceMs: null,
      untilMs: null,
      includeSkipped: false,
      selected: 1,
      attempted: 0,
      succeeded: 0,
      failed: 0,
      createdAt: now,
    };
    const what = {
      action: 'message.resend',
      target: { type: 'delivery' as const, id, tenantId },
      details: { event_id: msg.event.eventId, endpoint_id: endpointId },
    };
    if (!(await audited(p, actor, what, 'addDelivery', replay, msg.event.id, id, now))) throw fail('message_not_found');
    p.dispatcher.wake();
    const d = await p.store.reporting.getDelivery(tenantId, id);
    if (!d) throw fail('delivery_not_found');
    return d;
  }
}
