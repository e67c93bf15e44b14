// Event-type registry rows as stored; the server's registry checks definitions and validates data over these.
import type { EventTypeRow } from '../store/store.ts';
import type { EngineParts } from './parts.ts';

export class EventTypeOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** Defines or replaces a type (the caller has checked the definition). */
  put(row: EventTypeRow): Promise<void> {
    return this.#p.store.putEventType(row);
  }

  get(name: string): Promise<EventTypeRow | null> {
    return this.#p.store.getEventType(name);
  }

  list(): Promise<EventTypeRow[]> {
    return this.#p.store.listEventTypes();
  }
}
