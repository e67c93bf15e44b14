import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisStore } from '../src/stores/redis-store.ts';
import { runStoreConformance } from '../testing/store-conformance.ts';
import { skipUnlessReachable } from './service-probe.ts';

const host = '127.0.0.1';
const skip = await skipUnlessReachable('redis', host, 6379);

runStoreConformance(
  'redis',
  async () => {
    const prefix = `hookline:receiver:test:${randomBytes(6).toString('hex')}:`;
    const client = new Redis({ host, port: 6379, maxRetriesPerRequest: 1 });
    return {
      // A short TTL so nothing a crashed run leaves behind lingers.
      store: redisStore(client, { prefix, ttlMs: 120_000 }),
      breakBackend: async () => client.disconnect(),
      close: async () => {
        const cleaner = new Redis({ host, port: 6379 });
        const keys = await cleaner.keys(`${prefix}*`);
        if (keys.length > 0) await cleaner.del(...keys);
        await cleaner.quit();
      },
    };
  },
  { prunes: false, skip },
);
