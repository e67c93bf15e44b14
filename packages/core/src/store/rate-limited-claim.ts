// The rate limit inside a claim (docs/rules.md#rate-limit): of the rows a claim leased for a rate-limited endpoint,
// only as many as its shared token bucket holds stay leased; the rest go back un-attempted, each due at its own slot
// at the rate, and so does the endpoint's other due backlog once the bucket is empty.
import { deferSlots, rateBurst, takeTokens } from '../pacing/rate-bucket.ts';
import type { SqlExecutor } from './sql-driver.ts';

type Row = Record<string, any>;

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Takes tokens for the claimed rows (`claimed-rows` rows, with `e_rate_limit_per_s` and `e_status`) of rate-limited
 * endpoints, in endpoint id order (bucket rows are locked in one order by every worker), and returns the rows that
 * stay leased. A paused endpoint's rows are never sent (they end as endpoint_paused), so they take no token.
 */
export async function applyRateLimits(tx: SqlExecutor, claimed: Row[], worker: string, now: number): Promise<Row[]> {
  const limited = new Map<string, Row[]>();
  for (const r of claimed) {
    if (r.e_rate_limit_per_s == null || r.e_status === 'paused') continue;
    let list = limited.get(r.endpoint_id);
    if (!list) limited.set(r.endpoint_id, (list = []));
    list.push(r);
  }
  if (limited.size === 0) return claimed;
  const deferred = new Set<string>();
  for (const endpointId of [...limited.keys()].sort(cmp)) {
    const list = limited.get(endpointId)!;
    const rate = Number(list[0].e_rate_limit_per_s);
    await tx.run('ensure-rate-bucket', { endpoint_id: endpointId, tokens: rateBurst(rate), now });
    const [b] = await tx.all('lock-rate-bucket', { endpoint_id: endpointId });
    const grant = takeTokens({ tokens: Number(b.tokens), refilledAt: Number(b.refilled_at) }, rate, now, list.length);
    const bucket = { endpoint_id: endpointId, tokens: grant.bucket.tokens, refilled_at: grant.bucket.refilledAt };
    if (grant.granted >= list.length) {
      await tx.run('put-rate-bucket', { ...bucket, scheduled_until: Number(b.scheduled_until) });
      continue;
    }
    // The oldest due keep their turn; the rest wait, each for its own slot at the rate, then the unclaimed backlog.
    list.sort((x, y) => Number(x.next_attempt_at) - Number(y.next_attempt_at) || cmp(x.id, y.id));
    const back = list.slice(grant.granted).map((r) => r.id as string);
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
  return deferred.size === 0 ? claimed : claimed.filter((r) => !deferred.has(r.id));
}
