// The real engine for a simulation (`hookline simulate`, POST /v1/simulate): a temp SQLite store, a virtual clock, a scripted sender, one endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VirtualClock } from '../clock.ts';
import type { DeliverySender } from '../dispatch/dispatcher.ts';
import type { DispatchObserver } from '../dispatch/observers.ts';
import type { IdleTarget } from '../dispatch/run-until-idle.ts';
import type { Delivery } from '../domain.ts';
import type { HooklineOptions } from '../engine-options.ts';
import { fail } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { seededRandom } from '../policy/random.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import { generateMasterKey } from '../secret-box.ts';
import { openSqliteStore } from '../store/sqlite/sqlite-store.ts';

/** Never resolved or connected: the scripted sender answers in-process. `.invalid` is reserved (RFC 2606). */
export const SIM_ENDPOINT_URL = 'http://sim.invalid/hook';
export const SIM_TENANT_ID = 'ten_SIMULATION';
const DAY_MS = 86_400_000;
/** How often a worker runs the health sweep (packages/core maintenance: every 60 s). */
const SWEEP_EVERY_MS = 60_000;

/** What a simulation drives of an engine (a Hookline has all of it). The engine module wires the simulations, so the
 * simulation names only these operations and gets the engine from the factory its caller hands it. */
export interface SimulatedEngine extends IdleTarget {
  readonly tenants: { create(input: { id: string; name: string; notify_email: boolean }): Promise<unknown> };
  readonly endpoints: {
    create(
      tenantId: string,
      input: {
        url: string;
        policy: string;
        description: string;
        ordering?: 'key';
        on_failure?: 'continue' | 'block';
        rate_limit_per_s: number | null;
        max_concurrency: number | null;
      },
    ): Promise<{ endpoint: { id: string } }>;
  };
  readonly events: {
    accept(
      tenantId: string,
      input: { event_id?: string; type: string; data: unknown },
    ): Promise<{ deliveries: ReadonlyArray<{ id: string }> }>;
  };
  readonly deliveries: { find(tenantId: string, id: string): Promise<Delivery | null> };
  readonly maintenance: { run(now: number): Promise<unknown> };
  stop(): Promise<void>;
}

export interface SimEngine<E extends SimulatedEngine = SimulatedEngine> {
  readonly engine: E;
  readonly clock: VirtualClock;
  readonly tenantId: string;
  readonly endpointId: string;
  /** Virtual time at which the simulation starts (t = 0 in every timeline). */
  readonly start: number;
  /** Settle's per-step hook: the worker's periodic health sweep, once per minute of virtual time. */
  step(now: number): Promise<void>;
  /** Throws if the engine logged an error: a simulation that hid one would print a wrong timeline. */
  assertClean(): void;
  close(): Promise<void>;
}

export interface SimEngineOptions<E extends SimulatedEngine = SimulatedEngine> {
  /** `createHookline`, passed in by the caller: the engine's own module wires the simulations, so this one cannot import it. */
  readonly createEngine: (options: HooklineOptions) => E;
  readonly policy: string;
  readonly policies: PolicyRegistry;
  readonly seed: number;
  readonly clock: VirtualClock;
  readonly sender: DeliverySender;
  readonly observers: DispatchObserver[];
  /** The endpoint orders by key (docs/rules.md#ordered-delivery) with this on_failure; null: unordered. */
  readonly ordering?: { readonly onFailure: 'continue' | 'block' } | null;
  /** The endpoint's rate limit and cap (null: none / the policy's). */
  readonly limits?: { readonly rateLimitPerS: number | null; readonly maxConcurrency: number | null };
}

export async function openSimEngine<E extends SimulatedEngine>(o: SimEngineOptions<E>): Promise<SimEngine<E>> {
  if (!o.policies.has(o.policy)) throw fail('unknown_policy', { name: o.policy });
  const dir = mkdtempSync(join(tmpdir(), 'hookline-simulate-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let store: Awaited<ReturnType<typeof openSqliteStore>>;
  try {
    store = await openSqliteStore(join(dir, 'simulate.db'));
  } catch (err) {
    cleanup();
    throw err;
  }
  const clock = o.clock;
  const errors: string[] = [];
  const logger: Logger = {
    log(level, msg, fields) {
      if (level === 'error') errors.push(`${msg}${fields?.error ? `: ${String(fields.error)}` : ''}`);
    },
  };
  const engine = o.createEngine({
    store,
    clock,
    sender: o.sender,
    masterKey: generateMasterKey(),
    policies: o.policies,
    logger,
    allowHttp: true,
    allowPrivateTargets: true,
    observers: o.observers,
    dispatcher: { random: seededRandom(o.seed), logAttempts: false },
    // The sweep runs from step() on virtual time; retention must never delete what the simulation reports on.
    maintenance: { enabled: false, retention: { deliveriesMs: 100 * 365 * DAY_MS } },
  });
  let lastSweep = Number.NEGATIVE_INFINITY;
  const step = async (now: number) => {
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await engine.maintenance.run(now);
  };
  const close = async () => {
    await engine.stop();
    await store.close();
    cleanup();
  };
  try {
    const now = clock.now();
    await engine.tenants.create({ id: SIM_TENANT_ID, name: 'Simulation', notify_email: false });
    const { endpoint } = await engine.endpoints.create(SIM_TENANT_ID, {
      url: SIM_ENDPOINT_URL,
      policy: o.policy,
      description: 'hookline simulate',
      ...(o.ordering ? { ordering: 'key' as const, on_failure: o.ordering.onFailure } : {}),
      rate_limit_per_s: o.limits?.rateLimitPerS ?? null,
      max_concurrency: o.limits?.maxConcurrency ?? null,
    });
    const assertClean = () => {
      if (errors.length)
        throw new Error(`the engine reported ${errors.length} error(s) during the simulation; first: ${errors[0]}`);
    };
    return { engine, clock, tenantId: SIM_TENANT_ID, endpointId: endpoint.id, start: now, step, assertClean, close };
  } catch (err) {
    await close();
    throw err;
  }
}
