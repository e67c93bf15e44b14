// Exports a listing as NDJSON (one JSON object per line), read page by page from the store while the response is
// written: memory stays at one page whatever the listing's length, and a slow reader holds back the next read.
import { Readable } from 'node:stream';
import type { Page } from '@hookline/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const NDJSON = 'application/x-ndjson';

/** Rows per read while exporting. */
export const EXPORT_PAGE = 500;

/** Whether the request asks for NDJSON: `?format=ndjson`, or an Accept header that names it. */
export function wantsNdjson(req: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'ndjson';
  return (req.headers.accept ?? '').includes(NDJSON);
}

/** Streams every page `read` gives (from the first, following next_cursor), each item as `view` makes it, one per line. */
export function sendNdjson<T>(
  reply: FastifyReply,
  read: (cursor: string | null) => Promise<Page<T>>,
  view: (item: T) => unknown,
): FastifyReply {
  async function* lines(): AsyncGenerator<string> {
    let cursor: string | null = null;
    do {
      const page: Page<T> = await read(cursor);
      if (page.items.length > 0) yield `${page.items.map((i) => JSON.stringify(view(i))).join('\n')}\n`;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return reply
    .type(NDJSON)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines(), { objectMode: false }));
}
