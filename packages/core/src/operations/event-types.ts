// Event-type registry rows as stored; the server's registry checks definitions and validates data over these.
import type { Actor } from '../audit/audit-types.ts';
import type { EventTypeRow } from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

export class EventTypeOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** Defines or replaces a type (the caller has checked the definition). */
  put(row: EventTypeRow, actor?: Actor): Promise<void> {
    const target = { type: 'event_type' as const, id: row.name, tenantId: null };
    return audited(this.#p, actor, { action: 'event_type.put', target }, 'putEventType', row);
  }

  get(name: string): Promise<EventTypeRow | null> {
    return this.#p.store.catalog.getEventType(name);
  }

  list(): Promise<EventTypeRow[]> {
    return this.#p.store.catalog.listEventTypes();
  }
}
