// Streams a selection as NDJSON (one JSON object a line) batch by batch: the next batch is read only when the client has
// taken the last (backpressure), so memory holds one batch whatever the selection's size. Any export can use it.
import { Readable } from 'node:stream';
import { HooklineError } from '@hookline/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const NDJSON = 'application/x-ndjson';

/** Does the request ask for NDJSON: `Accept: application/x-ndjson`, or `format=ndjson` in the query? */
export function wantsNdjson(req: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'ndjson';
  return (req.headers.accept ?? '').split(',').some((t) => t.split(';')[0].trim().toLowerCase() === NDJSON);
}

/**
 * Answers 200 with the batches of `source` as NDJSON lines, each item turned into its line by `line`. The first batch
 * is read before anything is sent, so a refusal (400, 404) is still an ordinary error answer. A failure after the
 * first line cannot change the status: the stream ends with one last line `{"error":{"code","message"}}`, and a
 * client resumes from the last item it got (each route says how, e.g. `after=<last id>`).
 */
export async function sendNdjson<T>(
  reply: FastifyReply,
  source: AsyncIterator<T[]>,
  line: (item: T) => unknown,
  onError: (err: unknown) => void,
): Promise<FastifyReply> {
  const first = await source.next();
  async function* lines(): AsyncGenerator<string> {
    try {
      for (let r = first; !r.done; r = await source.next()) {
        if (r.value.length > 0) yield `${r.value.map((item) => JSON.stringify(line(item))).join('\n')}\n`;
      }
    } catch (err) {
      onError(err);
      const e =
        err instanceof HooklineError
          ? { code: err.code, message: err.message }
          : { code: 'internal_error', message: 'the export stopped; resume it from the last line received' };
      yield `${JSON.stringify({ error: e })}\n`;
    } finally {
      await source.return?.(undefined);
    }
  }
  // Readable.from pulls the generator only as the socket drains: the store is read no faster than the client reads.
  return reply
    .type(NDJSON)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 }));
}
