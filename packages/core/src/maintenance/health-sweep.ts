// Pauses endpoints whose failure streak outlasted their policy's limit even when no attempt happens (docs/rules.md#health-pause).
import type { PolicyRegistry } from '../policy/registry.ts';
import type { BreakerStore, HealthTransition } from '../store/store.ts';

/**
 * `standard` pauses after 5 days of uninterrupted failure. Attempts check this as they record, but a dead
 * endpoint's ladders run out after ≈ 27.5 h, so without new events nothing would ever look again: this does.
 */
export async function sweepHealth(
  store: Pick<BreakerStore, 'listEndpointsFailingSince' | 'pauseFailingEndpoint'>,
  policies: PolicyRegistry,
  now: number,
): Promise<HealthTransition[]> {
  let shortest = Number.POSITIVE_INFINITY;
  for (const name of policies.names()) {
    const ms = policies.get(name)?.health.pauseAfterFailingMs;
    if (ms !== undefined) shortest = Math.min(shortest, ms);
  }
  if (!Number.isFinite(shortest)) return [];
  const out: HealthTransition[] = [];
  for (const ep of await store.listEndpointsFailingSince(now - shortest)) {
    const policy = policies.get(ep.policy) ?? policies.default();
    const limit = policy.health.pauseAfterFailingMs;
    if (limit === undefined || ep.failingSince === null || now - ep.failingSince < limit) continue;
    // Conditional on the same streak: an endpoint that recovered meanwhile is left alone.
    if (await store.pauseFailingEndpoint(ep.id, ep.failingSince, now)) {
      out.push({
        tenantId: ep.tenantId,
        endpointId: ep.id,
        from: 'degraded',
        to: 'paused',
        reason: 'failing',
        at: now,
      });
    }
  }
  return out;
}
