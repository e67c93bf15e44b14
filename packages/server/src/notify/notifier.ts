// Tells tenants about transitions, once each, never per failure: a durable notice, an operational webhook, an e-mail.
import { newId, silentLogger, type AttemptEvent, type BreakerTransition, type ClaimedDelivery, type DispatchObserver, type HealthTransition, type Hookline, type Logger } from '@hookline/core';
import type { Mailer } from './mailer.ts';
import { breakerNotice, deliveryFailedNotice, healthNotice, mailSubject, mailText, type NoticeDraft } from './notice-text.ts';

export interface NotifierOptions {
  engine: Hookline;
  /** SMTP mailer; null or absent: no e-mail (notices and operational webhooks still go out). */
  mailer?: Mailer | null;
  logger?: Logger;
  /** Which delivery.failed notices are also mailed: money events only (default), all, or none. */
  mailDeliveryFailed?: 'money' | 'all' | 'none';
}

/** Deliveries already reported failed, so one delivery is reported once even if observers fire twice. */
const REMEMBERED_FAILURES = 10_000;

export class Notifier implements DispatchObserver {
  readonly #o: NotifierOptions;
  readonly #logger: Logger;
  readonly #pending = new Set<Promise<void>>();
  readonly #failed = new Set<string>();

  constructor(o: NotifierOptions) {
    this.#o = o;
    this.#logger = o.logger ?? silentLogger;
  }

  /** Subscribes to the engine's dispatcher; returns this. */
  attach(): this {
    this.#o.engine.addObserver(this);
    return this;
  }

  // ---- DispatchObserver: each hook only starts work; the dispatcher never waits on notifications.

  health(t: HealthTransition): void {
    this.#track(async () => {
      const ep = await this.#o.engine.endpoints.find(t.tenantId, t.endpointId);
      const draft = healthNotice(t, ep);
      if (draft) await this.#notify(draft);
    });
  }

  breaker(t: BreakerTransition): void {
    const draft = breakerNotice(t);
    if (draft) this.#track(() => this.#notify(draft));
  }

  attempt(e: AttemptEvent): void {
    // A failed replay leaves an already-failed delivery failed: that is not news.
    if (e.next.status === 'failed' && e.claimed.replayId === null) this.#deliveryFailed(e.claimed, e.next.reason, e.attempt.n);
  }

  ended(c: ClaimedDelivery, status: 'failed' | 'skipped', reason: string): void {
    if (status === 'failed') this.#deliveryFailed(c, reason, c.delivery.attemptCount);
  }

  /** Resolves once every notification started so far is done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  async close(): Promise<void> {
    await this.idle();
    this.#o.mailer?.close();
  }

  // ---- internals

  #deliveryFailed(c: ClaimedDelivery, reason: string, attempts: number): void {
    const id = c.delivery.id;
    if (this.#failed.has(id)) return;
    this.#failed.add(id);
    if (this.#failed.size > REMEMBERED_FAILURES) this.#failed.delete(this.#failed.values().next().value as string);
    const draft = deliveryFailedNotice({ ...c.delivery, attemptCount: attempts }, reason);
    this.#track(() => this.#notify(draft));
  }

  #track(work: () => Promise<void>): void {
    const p = work()
      .catch((err) => this.#logger.log('error', 'notification failed', { error: (err as Error).message }))
      .finally(() => this.#pending.delete(p));
    this.#pending.add(p);
  }

  async #notify(n: NoticeDraft): Promise<void> {
    const engine = this.#o.engine;
    const now = engine.clock.now();
    const id = newId('ntc', now);
    const tenant = await engine.tenants.find(n.tenantId);
    if (!tenant) return; // deleted meanwhile: nobody left to tell
    // The notice is the durable record (console, API; it reads its environment from the tenant); the webhook is
    // durable once accepted; mail is best effort. Both name the environment (docs/rules.md#environments).
    await engine.notices.add({ id, tenantId: n.tenantId, kind: n.kind, subjectId: n.subjectId, message: n.message, data: n.data, createdAt: now });
    const ops = tenant.operationsEndpointId;
    // Never report the operations endpoint's own trouble through itself: that would feed on itself.
    if (ops && ops !== n.endpointId) {
      try {
        await engine.events.acceptFor(n.tenantId, ops, { event_id: id, type: n.kind, data: { notice_id: id, environment: tenant.environment, message: n.message, ...n.data } });
      } catch (err) {
        this.#logger.log('warn', 'operational webhook not accepted', { tenant_id: n.tenantId, kind: n.kind, error: (err as Error).message });
      }
    }
    if (this.#o.mailer && tenant.notifyEmail && tenant.ownerEmails.length && this.#mails(n)) {
      const mailer = this.#o.mailer;
      // Sent in the background: a slow relay must not delay the next notice.
      this.#track(async () => {
        try {
          await mailer.send({ to: tenant.ownerEmails, subject: mailSubject(n, tenant.environment), text: mailText(n, tenant.environment) });
        } catch (err) {
          this.#logger.log('warn', 'notification mail not sent', { tenant_id: n.tenantId, kind: n.kind, error: (err as Error).message });
        }
      });
    }
  }

  #mails(n: NoticeDraft): boolean {
    if (n.kind !== 'delivery.failed') return true;
    const mode = this.#o.mailDeliveryFailed ?? 'money';
    return mode === 'all' || (mode === 'money' && n.money);
  }
}

/** A Notifier subscribed to the engine's dispatcher. */
export function createNotifier(o: NotifierOptions): Notifier {
  return new Notifier(o).attach();
}
