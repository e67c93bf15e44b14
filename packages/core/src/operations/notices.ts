// A tenant's notices (endpoint degraded, paused, recovered…): recorded by the notifier, listed newest first.
import type { Notice, Page } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';

export class NoticeOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** Records a notice; its environment is the tenant's, read back with it (docs/rules.md#environments). */
  add(notice: Omit<Notice, 'environment' | 'resolvedAt'>): Promise<void> {
    return this.#p.store.outbox.addNotice(notice);
  }

  list(tenantId: string, cursor: string | null, limit: number): Promise<Page<Notice>> {
    return this.#p.store.outbox.listNotices(tenantId, cursor, limit);
  }
}
