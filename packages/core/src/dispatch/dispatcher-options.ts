// What a dispatcher is built from: its sender port, its options and their defaults, resolved once.
import type { Tracer } from '@opentelemetry/api';
import type { Clock } from '../clock.ts';
import { DEFAULTS } from '../defaults.ts';
import type { OAuth2Client } from '../http/oauth2-client.ts';
import type { ClientCertificate, SendResult } from '../http/sender.ts';
import type { Logger } from '../logger.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import type { Store } from '../store/store.ts';
import { type AdmissionGate, openGate } from './admission.ts';
import type { EgressCache } from './egress-cache.ts';
import type { DispatchObserver } from './observers.ts';
import type { SecretCache } from './secret-cache.ts';

/** What the dispatcher needs from an HTTP client; `simulatedDurationMs` lets a scripted sender spend virtual time. */
export interface DeliverySender {
  send(request: {
    url: string;
    headers: Record<string, string>;
    body: Buffer;
    timeoutMs: number;
    /** The endpoint and its cap: the HTTP client keeps a pool per endpoint sized to it. */
    endpointId?: string;
    maxConcurrency?: number;
    /** The endpoint's way out (egress-cache.ts): its proxy choice, client certificate and OAuth2 client. */
    proxy?: string;
    clientCertificate?: ClientCertificate;
    oauth2?: OAuth2Client;
  }): Promise<SendResult & { simulatedDurationMs?: number }>;
}

export interface DispatcherOptions {
  /** The delivery queue part of the store, and its ping (is a refused batch the store's fault or a row's?). */
  store: Pick<Store, 'queue' | 'ping' | 'capsAcrossWorkers'>;
  clock: Clock;
  sender: DeliverySender;
  policies: PolicyRegistry;
  secrets: SecretCache;
  /** The endpoints' proxy choices, client certificates and OAuth2 clients; none: every attempt as configured. */
  egress?: EgressCache;
  logger: Logger;
  gate?: AdmissionGate;
  observers?: DispatchObserver[];
  workerId?: string;
  /** Deliveries claimed per statement. */
  batchSize?: number;
  /** Deliveries this process holds leased at once, queued or sending (sends per endpoint stay within its cap). */
  maxInFlight?: number;
  /**
   * How many times its concurrency cap an endpoint may have leased at once. Above 1, a worker keeps the next sends
   * queued so a freed slot refills without waiting for a commit and a claim (caps still hold within a process);
   * 1 makes caps exact across several processes sharing one database.
   */
  leaseFactor?: number;
  /** How long a claim is held before the sweeper hands it to another worker; must outlive the longest send (60 s) and its commit. */
  leaseMs?: number;
  /** Longest sleep when nothing is due and nobody wakes the loop. */
  pollMs?: number;
  /** How often expired leases are handed back. */
  sweepMs?: number;
  random?: () => number;
  /** Log one JSON line per attempt (docs/rules.md#attempt-log). */
  logAttempts?: boolean;
  /**
   * Hand back every lease on the store when starting (default: when the store has one worker process, SQLite):
   * they are all a killed predecessor's, so its deliveries are sent again at once instead of after the lease.
   */
  releaseLeasesOnStart?: boolean;
  /**
   * Adapt each endpoint's concurrency to its pushback (docs/rules.md#adaptive-concurrency), within 1 … max_concurrency
   * (default true). Off: every endpoint is sent its max_concurrency at once.
   */
  adaptiveConcurrency?: boolean;
  /** The notifications' reopen window, carried by each attempt record to the store (docs/rules.md#notifications). */
  noticeReopenWindowMs?: number;
  /** Each attempt is a span of this tracer (docs/observability.md#traces); absent: no span work at all. */
  tracer?: Tracer;
}

export type ResolvedOptions = Required<
  Omit<DispatcherOptions, 'workerId' | 'gate' | 'observers' | 'random' | 'egress' | 'tracer'>
> & {
  egress?: EgressCache;
  gate: AdmissionGate;
  random: () => number;
  tracer: Tracer | null;
};

/** The options with every default filled in. */
export function resolveOptions(options: DispatcherOptions): ResolvedOptions {
  return {
    ...DEFAULTS.dispatcher,
    leaseFactor: 1,
    logAttempts: true,
    releaseLeasesOnStart: !options.store.capsAcrossWorkers,
    adaptiveConcurrency: true,
    noticeReopenWindowMs: DEFAULTS.notifications.reopenWindowMs,
    ...options,
    gate: options.gate ?? openGate,
    random: options.random ?? Math.random,
    tracer: options.tracer ?? null,
  } as ResolvedOptions;
}
