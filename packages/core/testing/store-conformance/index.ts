// The one conformance suite every Store must pass: each method, then the engine's rules run on top of the store.
// store.sqlite.test.ts and store.postgres.test.ts call it with their factory; nothing here knows the dialect.
// Each area is a file of its own; this entry gives every check a fresh store and groups the areas.
import { describe, test } from 'node:test';
import type { Store } from '../../src/store/store.ts';
import { administrationConformance } from './administration.ts';
import { attemptHistoryConformance } from './attempt-history.ts';
import { auditConformance } from './audit.ts';
import { breakersConformance } from './breakers.ts';
import { claimsLeasesConformance } from './claims-leases.ts';
import { compatConformance } from './compat.ts';
import { endpointEgressConformance } from './endpoint-egress.ts';
import { endpointOptionsConformance } from './endpoint-options.ts';
import { engineRulesConformance } from './engine-rules.ts';
import { eventSearchConformance } from './event-search.ts';
import { eventsDeliveriesConformance } from './events-deliveries.ts';
import type { WithStore } from './fixtures.ts';
import { healthRetentionConformance } from './health-retention.ts';
import { incidentsConformance } from './incidents.ts';
import { messageReadsConformance } from './message-reads.ts';
import { processesConformance } from './processes.ts';
import { rateLimitsConformance } from './rate-limits.ts';
import { recordsConformance } from './records.ts';
import { replaysConformance } from './replays.ts';
import { retryNowConformance } from './retry-now.ts';
import { statsConformance } from './stats.ts';
import { tenantLimitsConformance } from './tenant-limits.ts';
import { traceContextConformance } from './trace-context.ts';

export interface StoreUnderTest {
  store: Store;
  /** Closes the store and removes what it created. */
  cleanup(): Promise<void>;
}

/** A fresh, empty, migrated store per call. */
export type StoreFactory = () => Promise<StoreUnderTest>;

/** Runs every check against stores made by `factory`; `name` labels the suite (e.g. 'sqlite'); `skip` says why not. */
export function storeConformance(name: string, factory: StoreFactory, options: { skip?: string | false } = {}): void {
  const withStore: WithStore = (title, fn) =>
    test(title, async (t) => {
      const s = await factory();
      try {
        await fn(s.store, t);
      } finally {
        await s.cleanup();
      }
    });

  describe(`store conformance: ${name}`, { skip: options.skip || false }, () => {
    describe('administration', () => administrationConformance(withStore));
    describe('events and deliveries', () => eventsDeliveriesConformance(withStore));
    describe('event search', () => eventSearchConformance(withStore));
    describe('claims and leases', () => claimsLeasesConformance(withStore));
    describe('rate limits and learned concurrency', () => rateLimitsConformance(withStore));
    describe('attempt records', () => recordsConformance(withStore));
    describe('attempt history', () => attemptHistoryConformance(withStore));
    describe('replays', () => replaysConformance(withStore));
    describe('retry now', () => retryNowConformance(withStore));
    describe('endpoint options', () => endpointOptionsConformance(withStore));
    describe('endpoint egress', () => endpointEgressConformance(withStore));
    describe('stats', () => statsConformance(withStore));
    describe('processes', () => processesConformance(withStore));
    describe('breakers', () => breakersConformance(withStore));
    describe('health sweeps and retention', () => healthRetentionConformance(withStore));
    describe('notices per incident', () => incidentsConformance(withStore));
    describe('audit log', () => auditConformance(withStore));
    describe('the Svix-compatible API (compat)', () => compatConformance(withStore));
    describe('message reads (the Svix-compatible API)', () => messageReadsConformance(withStore));
    describe('tenant limits', () => tenantLimitsConformance(withStore));
    describe('engine rules on this store', () => engineRulesConformance(withStore));
    describe('trace context', () => traceContextConformance(withStore));
  });
}
