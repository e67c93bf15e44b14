// The embeddable engine: wires store, policies, signing, ingest, dispatcher, breaker and maintenance, exposes the
// operations over them (operations/*) and runs the lifecycle. Its parts stay private: nothing goes around the operations.

import { Breaker } from './breaker/breaker-gate.ts';
import { type Clock, systemClock } from './clock.ts';
import { DEFAULTS } from './defaults.ts';
import { Dispatcher } from './dispatch/dispatcher.ts';
import { EgressCache } from './dispatch/egress-cache.ts';
import type { DispatchObserver } from './dispatch/observers.ts';
import { SecretCache } from './dispatch/secret-cache.ts';
import { NO_TENANT_LIMITS, type TenantLimits } from './domain.ts';
import type { HooklineOptions } from './engine-options.ts';
import { createSender } from './http/sender.ts';
import { Ingest } from './ingest.ts';
import { type Logger, silentLogger } from './logger.ts';
import { Maintenance } from './maintenance/runner.ts';
import { ApiKeyOperations } from './operations/api-keys.ts';
import { AuditOperations } from './operations/audit.ts';
import { BreakerOperations } from './operations/breakers.ts';
import { ConsoleSessionOperations } from './operations/console-sessions.ts';
import { DeliveryOperations } from './operations/deliveries.ts';
import { DoctorOperations } from './operations/doctor.ts';
import { EndpointSecretOperations } from './operations/endpoint-secrets.ts';
import { EndpointOperations } from './operations/endpoints.ts';
import type { EngineParts } from './operations/engine-parts.ts';
import { EventTypeOperations } from './operations/event-types.ts';
import { EventOperations } from './operations/events.ts';
import { IdempotencyOperations } from './operations/idempotency.ts';
import { MaintenanceOperations } from './operations/maintenance.ts';
import { MessageOperations } from './operations/messages.ts';
import { NoticeOperations } from './operations/notices.ts';
import { ProcessOperations } from './operations/processes.ts';
import { ReplayOperations } from './operations/replays.ts';
import { SimulationOperations } from './operations/simulations.ts';
import { StatsOperations } from './operations/stats.ts';
import { TenantOperations } from './operations/tenants.ts';
import { OutboxDrainer } from './outbox/outbox-drainer.ts';
import { DEFAULT_MONEY_RULES } from './policy/money-rules.ts';
import { PolicyRegistry } from './policy/registry.ts';
import type { MoneyRule } from './policy/types.ts';
import { createSecretBox } from './secret-box.ts';
import type { HealthTransition, Store } from './store/store.ts';

export class Hookline {
  readonly clock: Clock;
  readonly policies: PolicyRegistry;
  readonly logger: Logger;
  moneyRules: readonly MoneyRule[];

  // ---- operations: every write (and read) of the API, the CLI and the notifier goes through one of these
  readonly tenants: TenantOperations;
  readonly apiKeys: ApiKeyOperations;
  /** The audit log (docs/audit.md): every write above records its entry itself; this lists and verifies them. */
  readonly audit: AuditOperations;
  /** Console portal links and sessions (docs/console.md). */
  readonly console: ConsoleSessionOperations;
  readonly endpoints: EndpointOperations;
  readonly endpointSecrets: EndpointSecretOperations;
  readonly events: EventOperations;
  readonly deliveries: DeliveryOperations;
  readonly replays: ReplayOperations;
  readonly breakers: BreakerOperations;
  readonly notices: NoticeOperations;
  /** The processes sharing the store and their published settings (docs/scaling.md#settings-that-must-match). */
  readonly processes: ProcessOperations;
  readonly eventTypes: EventTypeOperations;
  /** The Svix-compatible API's messages (docs/svix-compatibility.md#messages). */
  readonly messages: MessageOperations;
  /** Idempotent requests, kept in the store for 12 h (docs/svix-compatibility.md#idempotency). */
  readonly idempotency: IdempotencyOperations;
  readonly stats: StatsOperations;
  readonly doctor: DoctorOperations;
  readonly maintenance: MaintenanceOperations;
  /** Policy preview: a policy's timeline against scripted answers, on a virtual clock in a throwaway store. */
  readonly simulations: SimulationOperations;
  /** The notification outbox (docs/rules.md#notifications): `outbox.handle(send)` installs the sender (the server's notifier). */
  readonly outbox: OutboxDrainer;

  readonly #o: HooklineOptions;
  readonly #store: Store;
  readonly #dispatcher: Dispatcher;
  readonly #sender: EngineParts['sender'];
  readonly #maintenance: Maintenance;
  readonly #revokeListeners: Array<() => void> = [];
  #offDue: (() => void) | null = null;

  constructor(o: HooklineOptions) {
    this.#o = o;
    const store = (this.#store = o.store);
    this.clock = o.clock ?? systemClock;
    this.policies = o.policies ?? new PolicyRegistry();
    const box = createSecretBox(o.masterKey);
    this.logger = o.logger ?? silentLogger;
    this.moneyRules = o.moneyRules ?? DEFAULT_MONEY_RULES;
    const sender = (this.#sender =
      o.sender ??
      createSender({
        allowHttp: o.allowHttp,
        allowPrivateTargets: o.allowPrivateTargets,
        clock: this.clock,
        ...(o.egress ? { egress: o.egress } : {}),
        ...(o.lookup ? { lookup: o.lookup } : {}),
      }));
    const secrets = new SecretCache(store.catalog, box);
    const egress = new EgressCache(store.egress, box);
    const tenantLimits: TenantLimits = { ...NO_TENANT_LIMITS, ...o.tenantLimits };
    const ingest = new Ingest({
      store,
      clock: this.clock,
      moneyRules: () => this.moneyRules,
      isMoneyOverride: o.isMoneyOverride,
      limitDefaults: tenantLimits,
    });
    const breaker = new Breaker({
      store,
      clock: this.clock,
      logger: this.logger,
      cacheMs: o.breaker?.cacheMs,
      // A probe whose worker died is replaced once its lease has surely expired.
      staleProbeMs:
        o.breaker?.staleProbeMs ?? (o.dispatcher?.leaseMs ?? DEFAULTS.dispatcher.leaseMs) + DEFAULTS.staleProbeMarginMs,
      onTransition: (t) => {
        for (const ob of this.#dispatcher.observers) ob.breaker?.(t);
      },
      onRelease: () => this.#dispatcher.wake(),
    });
    const dispatcher = (this.#dispatcher = new Dispatcher({
      store,
      clock: this.clock,
      sender,
      policies: this.policies,
      secrets,
      egress,
      logger: this.logger,
      gate: o.gate ?? breaker,
      observers: o.observers,
      // One SQLite file has one writer process: leasing ahead is safe. Several PostgreSQL workers need exact caps.
      leaseFactor: store.dialect === 'sqlite' ? 25 : 1,
      noticeReopenWindowMs: o.notifications?.reopenWindowMs ?? DEFAULTS.notifications.reopenWindowMs,
      ...(o.tracer ? { tracer: o.tracer } : {}),
      ...o.dispatcher,
    }));
    // A pause made while recording must make the next events `skipped` at once, not after the fan-out cache expires.
    dispatcher.addObserver({ health: (t) => ingest.invalidate(t.tenantId) });
    const outbox = (this.outbox = new OutboxDrainer({
      store,
      clock: this.clock,
      logger: this.logger,
      ...o.notifications,
    }));
    // The notification is already committed with its transition; this only sends it sooner than the next poll.
    dispatcher.addObserver({
      health: () => outbox.wake(),
      breaker: () => outbox.wake(),
      attempt: (e) => {
        if (e.next.status === 'failed') outbox.wake();
      },
      ended: (_c, status) => {
        if (status === 'failed') outbox.wake();
      },
    });
    const maintenance = (this.#maintenance = new Maintenance({
      store,
      clock: this.clock,
      policies: this.policies,
      logger: this.logger,
      intervalMs: o.maintenance?.intervalMs,
      retention: o.maintenance?.retention,
      onHealth: (transitions) => this.#emitHealth(transitions),
    }));
    const parts: EngineParts = {
      store,
      clock: this.clock,
      policies: this.policies,
      box,
      logger: this.logger,
      ingest,
      dispatcher,
      sender,
      secrets,
      egress,
      breaker,
      maintenance,
      settings: {
        allowHttp: o.allowHttp,
        allowPrivateTargets: o.allowPrivateTargets,
        rotationOverlapMs: o.rotationOverlapMs,
        replayQuotaPerDay: o.replayQuotaPerDay,
        replayMaxDeliveries: o.replayMaxDeliveries,
        noticeReopenWindowMs: o.notifications?.reopenWindowMs,
        tenantLimits,
      },
      emitHealth: (transitions) => this.#emitHealth(transitions),
      tracer: o.tracer ?? null,
    };
    const revoked = () => {
      for (const l of this.#revokeListeners) l();
    };
    this.tenants = new TenantOperations(parts, revoked);
    this.apiKeys = new ApiKeyOperations(parts, revoked);
    this.audit = new AuditOperations(parts);
    this.console = new ConsoleSessionOperations(parts);
    this.endpoints = new EndpointOperations(parts);
    this.endpointSecrets = new EndpointSecretOperations(parts);
    this.events = new EventOperations(parts);
    this.deliveries = new DeliveryOperations(parts);
    this.replays = new ReplayOperations(parts);
    this.breakers = new BreakerOperations(parts);
    this.notices = new NoticeOperations(parts);
    this.processes = new ProcessOperations(parts);
    this.eventTypes = new EventTypeOperations(parts);
    this.messages = new MessageOperations(parts);
    this.idempotency = new IdempotencyOperations(parts);
    this.stats = new StatsOperations(parts);
    this.doctor = new DoctorOperations(parts);
    this.maintenance = new MaintenanceOperations(parts);
    this.simulations = new SimulationOperations(parts, createHookline);
  }

  #emitHealth(transitions: HealthTransition[]): void {
    for (const t of transitions) {
      for (const ob of this.#dispatcher.observers) {
        try {
          ob.health?.(t);
        } catch (err) {
          this.logger.log('error', 'health observer failed', { error: (err as Error).message });
        }
      }
    }
  }

  // ---- observing and driving (notifications, metrics, tests on a virtual clock, `hookline simulate`)

  /** Listens to attempts, health and breaker transitions, holds and ends from now on. */
  addObserver(observer: DispatchObserver): void {
    this.#dispatcher.addObserver(observer);
  }

  /** `listener` runs after an API key is revoked or a tenant deleted: caches of credentials forget them. */
  onCredentialsRevoked(listener: () => void): void {
    this.#revokeListeners.push(listener);
  }

  /** Claims and sends everything due now, and waits for the attempts to be recorded; the number claimed. */
  runDue(): Promise<number> {
    return this.#dispatcher.runDue();
  }

  /** The earliest next_attempt_at of any pending delivery, or null when nothing waits. */
  nextDueAt(): Promise<number | null> {
    return this.#store.queue.nextDueAt();
  }

  /** Deliveries leased by this process and not yet recorded. */
  get inFlight(): number {
    return this.#dispatcher.inFlight;
  }

  // ---- lifecycle

  start(): void {
    // Work committed by another process (PostgreSQL LISTEN/NOTIFY) wakes this dispatcher at once; only processes
    // that dispatch listen, so an API-only process holds no listening connection.
    this.#offDue ??= this.#store.onDue?.(() => this.#dispatcher.wake()) ?? null;
    this.#dispatcher.start();
    this.outbox.start();
    if (this.#o.maintenance?.enabled !== false) this.#maintenance.start();
  }

  /**
   * Stops claiming, hands back what is leased but not yet started and lets the sends in flight commit; maintenance
   * and the HTTP pools keep running (start() resumes). stop() does this and closes the rest.
   */
  stopDispatching(): Promise<void> {
    return this.#dispatcher.stop();
  }

  async stop(): Promise<void> {
    this.#offDue?.();
    this.#offDue = null;
    await this.#maintenance.stop();
    await this.#dispatcher.stop();
    await this.outbox.stop();
    await this.#sender.close?.();
  }
}

export function createHookline(o: HooklineOptions): Hookline {
  return new Hookline(o);
}
