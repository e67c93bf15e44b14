// Reads a request body as raw bytes, bounded in size and in time, for every adapter.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ReceiverError } from '../errors.ts';

export interface BodyLimits {
  /** Larger bodies are refused with 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A body not fully received within this time is refused with 408. Default 10 s. */
  bodyTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * Collects a Node request stream into one Buffer, never re-serialised.
 *
 * @example
 * const rawBody = await readNodeBody(req, req.headers, { maxBodyBytes: 64 * 1024 });
 */
export function readNodeBody(stream: Readable, headers: IncomingHttpHeaders, limits: BodyLimits = {}): Promise<Buffer> {
  const max = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  // Refuse a declared oversize body before reading a byte of it.
  if (Number(headers['content-length'] ?? 0) > max) return Promise.reject(new ReceiverError('payload_too_large'));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => finish(new ReceiverError('body_read_timeout')), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return finish(new ReceiverError('payload_too_large'));
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(error);
    function finish(error?: Error) {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      if (error === undefined) resolve(Buffer.concat(chunks, size));
      else {
        // Stop pulling an unwanted body; the adapter answers and closes the connection.
        stream.pause();
        reject(error);
      }
    }
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/**
 * Collects a web `ReadableStream` (fetch `Request.body`) into one Buffer with the same bounds.
 *
 * @example
 * const rawBody = await readWebBody(request.body, request.headers.get('content-length'));
 */
export async function readWebBody(
  stream: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  limits: BodyLimits = {},
): Promise<Buffer> {
  const max = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (Number(contentLength ?? 0) > max) throw new ReceiverError('payload_too_large');
  if (stream === null) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReceiverError('body_read_timeout')), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > max) throw new ReceiverError('payload_too_large');
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, size);
}
