import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { NDJSON, sendNdjson } from './ndjson-export.ts';

test('an NDJSON export follows next_cursor page by page, each item on its own line', async () => {
  const pages: Record<string, { items: number[]; nextCursor: string | null }> = {
    first: { items: [1, 2], nextCursor: 'b' },
    b: { items: [3], nextCursor: 'c' },
    c: { items: [], nextCursor: null },
  };
  const reads: string[] = [];
  const app = Fastify();
  app.get('/x', (_req, reply) =>
    sendNdjson(
      reply,
      async (cursor) => {
        reads.push(cursor ?? 'first');
        return pages[cursor ?? 'first'];
      },
      (n) => ({ n }),
    ),
  );
  const res = await app.inject({ method: 'GET', url: '/x' });
  assert.equal(res.headers['content-type'], NDJSON);
  assert.equal(res.body, '{"n":1}\n{"n":2}\n{"n":3}\n');
  assert.deepEqual(reads, ['first', 'b', 'c']);
  await app.close();
});
