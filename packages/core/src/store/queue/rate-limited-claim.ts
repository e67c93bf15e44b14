// The rate limit inside a claim (docs/rules.md#rate-limit): of the rows a claim leased for a rate-limited endpoint,
// only as many as its shared token bucket holds stay leased; the rest go back un-attempted, each due at its own slot
// at the rate, and so does the endpoint's other due backlog once the bucket is empty.
import { deferSlots, rateBurst, takeTokens } from '../../pacing/rate-bucket.ts';
import type { SqlExecutor } from '../sql-driver.ts';
import type { ClaimedDelivery } from '../store.ts';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Takes tokens for the claimed deliveries of rate-limited endpoints, in endpoint id order (bucket rows are locked in
 * one order by every worker), and returns the deliveries that stay leased. A paused endpoint's deliveries are never
 * sent (they end as endpoint_paused), so they take no token.
 */
export async function applyRateLimits(
  tx: SqlExecutor,
  claimed: ClaimedDelivery[],
  worker: string,
  now: number,
): Promise<ClaimedDelivery[]> {
  const limited = new Map<string, ClaimedDelivery[]>();
  for (const c of claimed) {
    if (c.endpoint.rateLimitPerS == null || c.endpoint.status === 'paused') continue;
    let list = limited.get(c.delivery.endpointId);
    if (!list) limited.set(c.delivery.endpointId, (list = []));
    list.push(c);
  }
  if (limited.size === 0) return claimed;
  const deferred = new Set<string>();
  for (const endpointId of [...limited.keys()].sort(cmp)) {
    const list = limited.get(endpointId)!;
    const rate = Number(list[0].endpoint.rateLimitPerS);
    await tx.run('ensure-rate-bucket', { endpoint_id: endpointId, tokens: rateBurst(rate), now });
    const [b] = await tx.all('lock-rate-bucket', { endpoint_id: endpointId });
    const grant = takeTokens({ tokens: Number(b.tokens), refilledAt: Number(b.refilled_at) }, rate, now, list.length);
    const bucket = { endpoint_id: endpointId, tokens: grant.bucket.tokens, refilled_at: grant.bucket.refilledAt };
    if (grant.granted >= list.length) {
      await tx.run('put-rate-bucket', { ...bucket, scheduled_until: Number(b.scheduled_until) });
      continue;
    }
    // The oldest due keep their turn; the rest wait, each for its own slot at the rate, then the unclaimed backlog.
    list.sort(
      (x, y) =>
        Number(x.delivery.nextAttemptAt) - Number(y.delivery.nextAttemptAt) || cmp(x.delivery.id, y.delivery.id),
    );
    const back = list.slice(grant.granted).map((c) => c.delivery.id);
    const slots = deferSlots(back.length, rate, now, grant.blockedUntil, Number(b.scheduled_until));
    await tx.run('defer-rate-limited', { ids: back, dues: slots.dues, worker, now });
    const moved = await tx.run('defer-rate-backlog', {
      endpoint_id: endpointId,
      now,
      start: slots.scheduledUntil,
      rate,
    });
    const scheduledUntil =
      moved === 0
        ? slots.scheduledUntil
        : deferSlots(moved, rate, now, slots.scheduledUntil, slots.scheduledUntil).scheduledUntil;
    await tx.run('put-rate-bucket', { ...bucket, scheduled_until: scheduledUntil });
    for (const id of back) deferred.add(id);
  }
  return deferred.size === 0 ? claimed : claimed.filter((c) => !deferred.has(c.delivery.id));
}
