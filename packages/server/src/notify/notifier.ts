// Sends what the engine's outbox holds (docs/rules.md#notifications): a notice, an operational webhook, an e-mail.
// Each step is idempotent by the outbox id, so a row sent again after a crash is listed, delivered and mailed as one.
import { type Hookline, isHooklineError, type Logger, type OutboxRow, silentLogger } from '@hookline/core';
import type { Mailer } from './mailer.ts';
import { type NoticeDraft, noticeOf } from './notice-text.ts';

export interface NotifierOptions {
  engine: Hookline;
  /** SMTP mailer; null or absent: no e-mail (notices and operational webhooks still go out). */
  mailer?: Mailer | null;
  logger?: Logger;
  /** Which failure summaries are also mailed: those listing a money event (default), all, or none. */
  mailDeliveryFailed?: 'money' | 'all' | 'none';
  /** The domain of Message-IDs (`<outbox id@domain>`): a resent mail keeps its id, so mail clients thread or drop it. */
  messageIdDomain?: string;
}

export class Notifier {
  readonly #o: NotifierOptions;
  readonly #logger: Logger;

  constructor(o: NotifierOptions) {
    this.#o = o;
    this.#logger = o.logger ?? silentLogger;
  }

  /** Installs this as the engine's outbox sender; returns this. */
  attach(): this {
    this.#o.engine.outbox.handle((row) => this.send(row));
    return this;
  }

  /** Sends one outbox row on every channel; rejects (the row is retried) when a channel did not take it. */
  async send(row: OutboxRow): Promise<void> {
    const engine = this.#o.engine;
    const tenant = await engine.tenants.find(row.tenantId);
    if (!tenant) return; // deleted since: nobody left to tell
    // Every channel names the tenant's environment (docs/rules.md#environments); the notice reads it from the tenant.
    const n = noticeOf(row, tenant.environment);
    await engine.notices.add({
      id: row.id,
      tenantId: row.tenantId,
      kind: row.kind,
      subjectId: row.subjectId,
      message: n.message,
      data: row.data,
      createdAt: row.createdAt,
    });
    const ops = tenant.operationsEndpointId;
    // Never report the operations endpoint's own trouble through itself: that would feed on itself.
    if (ops && ops !== row.endpointId) {
      try {
        // The outbox id is the event id: sent again, it is the same event (the receiver dedupes; the store answers `existing`).
        await engine.events.acceptFor(row.tenantId, ops, {
          event_id: row.id,
          type: row.kind,
          occurred_at: new Date(row.createdAt).toISOString(),
          data: n.data,
        });
      } catch (err) {
        // An operations endpoint deleted meanwhile is the tenant's choice, not a reason to retry for ever.
        if (!(isHooklineError(err) && err.code === 'endpoint_not_found')) throw err;
        this.#logger.log('warn', 'operations endpoint gone; operational webhook not sent', {
          tenant_id: row.tenantId,
          kind: row.kind,
          outbox_id: row.id,
        });
      }
    }
    if (this.#o.mailer && tenant.notifyEmail && tenant.ownerEmails.length && this.#mails(n)) {
      await this.#o.mailer.send({
        to: tenant.ownerEmails,
        subject: n.subject,
        text: `Environment: ${tenant.environment}\n\n${n.message}\n\n${JSON.stringify({ environment: tenant.environment, ...row.data }, null, 2)}\n`,
        messageId: `<${row.id}@${this.#o.messageIdDomain ?? 'hookline.invalid'}>`,
      });
    }
  }

  /**
   * Drains the outbox until nothing due is left (virtual-clock tests and shutdown); rows that failed wait for their
   * retry time and are not waited for.
   */
  async idle(): Promise<void> {
    for (;;) {
      const r = await this.#o.engine.outbox.drainOnce();
      if (r.claimed === 0 && r.summaries === 0) return;
    }
  }

  async close(): Promise<void> {
    this.#o.mailer?.close();
  }

  #mails(n: NoticeDraft): boolean {
    if (n.kind !== 'deliveries.failed') return true;
    const mode = this.#o.mailDeliveryFailed ?? 'money';
    return mode === 'all' || (mode === 'money' && n.money);
  }
}

/** A Notifier installed as the engine's outbox sender. */
export function createNotifier(o: NotifierOptions): Notifier {
  return new Notifier(o).attach();
}
