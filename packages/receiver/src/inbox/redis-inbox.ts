// Inbox store on Redis through an ioredis client the caller creates: a hash per event, sorted sets as queues.
import { StorageUnavailable } from '../errors.ts';
import type { RedisClient } from '../stores/redis-store.ts';
import { type InboxEntry, type InboxState, type InboxStore, MAX_ERROR_LENGTH } from './inbox-store.ts';

export interface RedisInboxOptions {
  /**
   * Key prefix; default `{hookline:inbox}:`. The braces are a Redis Cluster hash tag: every key of
   * one inbox lands in one slot, which the Lua scripts need. Keep a `{…}` in your own prefix.
   */
  prefix?: string;
}

// Layout: `<prefix>e:<id>` a hash with the event and its state; `<prefix>queue` scores every
// pending id by its due time and every running id by its lease expiry (an expired lease is simply
// due again); `<prefix>done` and `<prefix>dead` score finished ids by their finish time.

// KEYS: 1 entry, 2 queue. ARGV: 1 id, 2 type, 3 delivery id or '', 4 scheme, 5 headers JSON, 6 body base64, 7 received at.
const ACCEPT = `
local state = redis.call('HGET', KEYS[1], 'state')
if state then return state end
redis.call('HSET', KEYS[1], 'type', ARGV[2], 'delivery_id', ARGV[3], 'scheme', ARGV[4], 'headers', ARGV[5], 'body', ARGV[6],
  'state', 'pending', 'attempt', 0, 'failures', 0, 'available_at', ARGV[7], 'received_at', ARGV[7], 'updated_at', ARGV[7], 'error', '')
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
return 'accepted'
`;

// KEYS: 1 queue. ARGV: 1 now, 2 lease ms, 3 limit, 4 prefix. Returns id, fields, id, fields, …
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local lease_until = tonumber(ARGV[1]) + tonumber(ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[4] .. 'e:' .. id
  local state = redis.call('HGET', key, 'state')
  if state == 'pending' or state == 'running' then
    redis.call('HINCRBY', key, 'attempt', 1)
    redis.call('HSET', key, 'state', 'running', 'available_at', lease_until, 'updated_at', ARGV[1])
    redis.call('ZADD', KEYS[1], lease_until, id)
    out[#out + 1] = id
    out[#out + 1] = redis.call('HGETALL', key)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`;

// Leaves running, fenced by attempt. KEYS: 1 entry, 2 queue, 3 done or dead set.
// ARGV: 1 id, 2 attempt, 3 new state, 4 available at, 5 now, 6 error or '', 7 failures to add.
const FINISH = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' or redis.call('HGET', KEYS[1], 'attempt') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'available_at', ARGV[4], 'updated_at', ARGV[5], 'error', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'failures', ARGV[7])
if ARGV[3] == 'pending' then
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
end
return 1
`;

// KEYS: 1 entry, 2 queue, 3 dead. ARGV: 1 id, 2 now.
const REVIVE = `
if redis.call('HGET', KEYS[1], 'state') ~= 'dead' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'failures', 0, 'available_at', ARGV[2], 'updated_at', ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
`;

// KEYS: 1 dead. ARGV: 1 limit, 2 prefix. Returns id, fields, …
const DEAD_LETTERS = `
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGETALL', ARGV[2] .. 'e:' .. id)
end
return out
`;

// KEYS: 1 entry.
const GET = `return redis.call('HGETALL', KEYS[1])`;

// KEYS: 1 done. ARGV: 1 before (exclusive), 2 limit, 3 prefix.
const PRUNE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do
  redis.call('DEL', ARGV[3] .. 'e:' .. id)
  redis.call('ZREM', KEYS[1], id)
end
return #ids
`;

/**
 * A durable `InboxStore` on Redis: each step is one Lua script, so accept, claim and finish are
 * atomic and several processes may share the inbox. Durable only as far as Redis is: run it with
 * `appendonly yes` and `appendfsync always` so an acknowledged event is on disk (with `everysec` a
 * crash of Redis can lose the last second of acknowledged events). Construct the client with
 * `maxRetriesPerRequest: 1` so an outage is a quick 503 rather than a queued command.
 *
 * @example
 * import Redis from 'ioredis';
 * const store = redisInbox(new Redis({ maxRetriesPerRequest: 1 }));
 */
export function redisInbox(client: RedisClient, options: RedisInboxOptions = {}): InboxStore {
  const prefix = options.prefix ?? '{hookline:inbox}:';
  const entryKey = (eventId: string) => `${prefix}e:${eventId}`;
  const queue = `${prefix}queue`;
  const doneSet = `${prefix}done`;
  const deadSet = `${prefix}dead`;
  const call = async (script: string, keys: string[], ...args: Array<string | number>): Promise<unknown> => {
    try {
      return await client.eval(script, keys.length, ...keys, ...args);
    } catch (error) {
      throw new StorageUnavailable(error);
    }
  };
  const finish = async (
    eventId: string,
    attempt: number,
    state: InboxState,
    at: number,
    now: number,
    error: string,
    failures: number,
  ): Promise<boolean> =>
    Number(
      await call(
        FINISH,
        [entryKey(eventId), queue, state === 'dead' ? deadSet : doneSet],
        eventId,
        attempt,
        state,
        at,
        now,
        error.slice(0, MAX_ERROR_LENGTH),
        failures,
      ),
    ) === 1;
  const entries = (reply: unknown): InboxEntry[] => {
    const flat = reply as Array<string | string[]>;
    const out: InboxEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push(toEntry(String(flat[i]), flat[i + 1] as string[]));
    return out;
  };
  return {
    async accept(event) {
      const body = Buffer.from(event.body.buffer, event.body.byteOffset, event.body.byteLength).toString('base64');
      const reply = String(
        await call(
          ACCEPT,
          [entryKey(event.eventId), queue],
          event.eventId,
          event.type,
          event.deliveryId ?? '',
          event.scheme,
          JSON.stringify(event.headers),
          body,
          event.receivedAt,
        ),
      );
      return reply === 'accepted' ? { kind: 'accepted' } : { kind: 'duplicate', state: reply as InboxState };
    },
    async claim(now, leaseMs, limit) {
      return entries(await call(CLAIM, [queue], now, leaseMs, limit, prefix)).sort(
        (a, b) => a.receivedAt - b.receivedAt,
      );
    },
    complete: (eventId, attempt, now) => finish(eventId, attempt, 'done', now, now, '', 0),
    reschedule: (eventId, attempt, error, at, now) => finish(eventId, attempt, 'pending', at, now, error, 1),
    bury: (eventId, attempt, error, now) => finish(eventId, attempt, 'dead', now, now, error, 1),
    async revive(eventId, now) {
      return Number(await call(REVIVE, [entryKey(eventId), queue, deadSet], eventId, now)) === 1;
    },
    async deadLetters(limit) {
      return entries(await call(DEAD_LETTERS, [deadSet], limit, prefix));
    },
    async get(eventId) {
      const fields = (await call(GET, [entryKey(eventId)])) as string[];
      return fields.length === 0 ? undefined : toEntry(eventId, fields);
    },
    async prune(before, limit) {
      return Number(await call(PRUNE, [doneSet], before, limit, prefix));
    },
  };
}

function toEntry(eventId: string, flat: readonly string[]): InboxEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) f[flat[i]!] = flat[i + 1]!;
  return {
    eventId,
    type: f.type!,
    deliveryId: f.delivery_id === '' ? undefined : f.delivery_id,
    scheme: f.scheme as InboxEntry['scheme'],
    headers: JSON.parse(f.headers!) as Record<string, string>,
    body: Buffer.from(f.body!, 'base64'),
    receivedAt: Number(f.received_at),
    state: f.state as InboxState,
    attempt: Number(f.attempt),
    failures: Number(f.failures),
    availableAt: Number(f.available_at),
    updatedAt: Number(f.updated_at),
    error: f.error === '' || f.error === undefined ? undefined : f.error,
  };
}
