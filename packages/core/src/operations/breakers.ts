// Circuit breakers (docs/rules.md#breaker): read one scope or a tenant's, reset one by hand.
import type { Actor } from '../audit/audit-types.ts';
import { SYSTEM_ACTOR } from '../audit/audit-types.ts';
import type { BreakerScopeRef, BreakerStatus } from '../breaker/breaker-gate.ts';
import type { EngineParts } from './engine-parts.ts';

export class BreakerOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** One scope's breaker (a scope key, or a tenant with an optional endpoint). */
  status(scope: string | BreakerScopeRef, windowMs?: number): Promise<BreakerStatus> {
    return this.#p.breaker.status(scope, windowMs);
  }

  /** Every breaker row of the tenant, tenant scope and endpoint scopes. */
  list(tenantId: string, windowMs?: number): Promise<BreakerStatus[]> {
    return this.#p.breaker.list(tenantId, windowMs);
  }

  /** The tenant-scope breaker and every endpoint-scope breaker of the tenant. */
  async ofTenant(tenantId: string): Promise<{ breaker: BreakerStatus; endpoints: BreakerStatus[] }> {
    const [own, all] = await Promise.all([this.status({ tenantId }), this.list(tenantId)]);
    return { breaker: own, endpoints: all.filter((b) => b.scope === 'endpoint') };
  }

  /** Closes the breaker now (a manual reset); its held deliveries become due at once. */
  reset(scope: string | BreakerScopeRef, actor?: Actor): Promise<BreakerStatus> {
    return this.#p.breaker.reset(scope, {
      at: this.#p.clock.now(),
      actor: actor ?? SYSTEM_ACTOR,
      action: 'breaker.reset',
    });
  }
}
