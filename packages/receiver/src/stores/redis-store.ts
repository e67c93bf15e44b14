// Dedup store on Redis through an ioredis client the caller creates; records expire by TTL.
import { claimOutcome, type DedupRecord, type DedupState, type DedupStore } from '../dedup-store.ts';
import { StorageUnavailable } from '../errors.ts';

/** The slice of ioredis we use; the driver itself is never imported here. */
export interface RedisClient {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
  get(key: string): Promise<string | null>;
}

export interface RedisStoreOptions {
  /** Key prefix; default `hookline:receiver:`. */
  prefix?: string;
  /**
   * How long an id is remembered, ms. Must outlast the sender's retry window (Hookline's
   * `payments` preset retries up to 30 days), so that is the default.
   */
  ttlMs?: number;
}

// Claim: `SET NX PX` records a new id; otherwise the same re-claim rule as isReclaimable().
// ARGV: 1 initial record JSON, 2 now, 3 stale_before, 4 ttl ms.
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[4]) then return {'claimed', 1} end
local raw = redis.call('GET', KEYS[1])
local rec = cjson.decode(raw)
if rec.state == 'failed' or ((rec.state == 'received' or rec.state == 'processing') and rec.updatedAt < tonumber(ARGV[3])) then
  rec.attempt = rec.attempt + 1
  rec.state = 'received'
  rec.error = nil
  rec.updatedAt = tonumber(ARGV[2])
  redis.call('SET', KEYS[1], cjson.encode(rec), 'PX', ARGV[4])
  return {'claimed', rec.attempt}
end
return {'taken', raw}
`;

// Transition: fenced by attempt and allowed states. ARGV: 1 attempt, 2 allowed states (comma
// separated, wrapped in commas), 3 patch JSON, or '' to delete the record.
const TRANSITION = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.attempt ~= tonumber(ARGV[1]) or not string.find(ARGV[2], ',' .. rec.state .. ',', 1, true) then return 0 end
if ARGV[3] == '' then redis.call('DEL', KEYS[1]) return 1 end
for k, v in pairs(cjson.decode(ARGV[3])) do rec[k] = v end
redis.call('SET', KEYS[1], cjson.encode(rec), 'KEEPTTL')
return 1
`;

const UNFINISHED = ',received,processing,';

/**
 * A `DedupStore` on Redis (a Lua script per step keeps each one atomic). Construct the client
 * with `maxRetriesPerRequest: 1` (or `enableOfflineQueue: false`) so a down Redis surfaces as
 * `StorageUnavailable` quickly instead of queueing commands.
 *
 * @example
 * import Redis from 'ioredis';
 * const store = redisStore(new Redis({ maxRetriesPerRequest: 1 }));
 */
export function redisStore(client: RedisClient, options: RedisStoreOptions = {}): DedupStore {
  const prefix = options.prefix ?? 'hookline:receiver:';
  const ttlMs = options.ttlMs ?? 30 * 24 * 3600 * 1000;
  const key = (eventId: string) => prefix + eventId;
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new StorageUnavailable(error);
    }
  };
  const transition = (eventId: string, attempt: number, from: string, patch: Record<string, unknown> | undefined) =>
    call(
      async () =>
        Number(
          await client.eval(
            TRANSITION,
            1,
            key(eventId),
            attempt,
            from,
            patch === undefined ? '' : JSON.stringify(patch),
          ),
        ) === 1,
    );

  return {
    async claim(eventId, now, staleAfterMs) {
      const initial = JSON.stringify({ eventId, state: 'received', attempt: 1, createdAt: now, updatedAt: now });
      const reply = (await call(() =>
        client.eval(CLAIM, 1, key(eventId), initial, now, now - staleAfterMs, ttlMs),
      )) as [string, number | string];
      if (reply[0] === 'claimed') return { kind: 'claimed', attempt: Number(reply[1]) };
      return claimOutcome(toRecord(String(reply[1])));
    },
    markProcessing(eventId, attempt, answer, now) {
      return transition(eventId, attempt, ',received,', { state: 'processing', answer, updatedAt: now });
    },
    markDone(eventId, attempt, now, answer) {
      return transition(
        eventId,
        attempt,
        UNFINISHED,
        answer === undefined ? { state: 'done', updatedAt: now } : { state: 'done', answer, updatedAt: now },
      );
    },
    markFailed(eventId, attempt, error, now) {
      return transition(eventId, attempt, UNFINISHED, { state: 'failed', error: error.slice(0, 1000), updatedAt: now });
    },
    async release(eventId, attempt) {
      await transition(eventId, attempt, UNFINISHED, undefined);
    },
    async get(eventId) {
      const raw = await call(() => client.get(key(eventId)));
      return raw === null ? undefined : toRecord(raw);
    },
    async prune() {
      return 0; // records expire by TTL
    },
  };
}

function toRecord(raw: string): DedupRecord {
  const rec = JSON.parse(raw) as {
    eventId: string;
    state: DedupState;
    attempt: number;
    answer?: { status: number; body: string };
    error?: string;
    updatedAt: number;
  };
  return {
    eventId: rec.eventId,
    state: rec.state,
    attempt: rec.attempt,
    answer: rec.answer,
    error: rec.error,
    updatedAt: rec.updatedAt,
  };
}
