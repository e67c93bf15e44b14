// The inbox conformance suite on a real Redis, with two clients (two processes' view).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisInbox } from '../src/inbox/redis-inbox.ts';
import { runInboxConformance } from '../testing/inbox-conformance.ts';
import { skipUnlessReachable } from './service-probe.ts';

const host = '127.0.0.1';
const skip = await skipUnlessReachable('redis', host, 6379);

runInboxConformance(
  'redis',
  async () => {
    const prefix = `{hookline:inbox:test:${randomBytes(6).toString('hex')}}:`;
    const clients = [
      new Redis({ host, port: 6379, maxRetriesPerRequest: 1 }),
      new Redis({ host, port: 6379, maxRetriesPerRequest: 1 }),
    ];
    return {
      store: redisInbox(clients[0]!, { prefix }),
      twin: redisInbox(clients[1]!, { prefix }),
      breakBackend: async () => clients[0]!.disconnect(),
      close: async () => {
        await clients[1]!.quit();
        const cleaner = new Redis({ host, port: 6379 });
        const keys = await cleaner.keys(`${prefix}*`);
        if (keys.length > 0) await cleaner.del(...keys);
        await cleaner.quit();
      },
    };
  },
  skip,
);
