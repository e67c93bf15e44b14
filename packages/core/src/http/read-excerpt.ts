// Reads at most `cap` bytes of a response body, then drops the connection instead of downloading the rest.
import type { Readable } from 'node:stream';

const noop = (): void => {};

/**
 * Resolves with the first `cap` bytes (fewer if the body ends first). Past the cap the stream is destroyed:
 * undici then aborts the request and closes the socket, so a receiver streaming gigabytes costs one
 * connection, not a worker. Rejects with the stream's error, e.g. the deadline's abort reason.
 */
export function readExcerpt(body: Readable, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let first: Buffer | null = null;
    let more: Buffer[] | null = null;
    let size = 0;
    const collected = (): Buffer => {
      if (more === null) return first === null ? Buffer.alloc(0) : first.subarray(0, cap);
      return Buffer.concat(more, size).subarray(0, cap);
    };
    const cleanup = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      if (first === null) first = chunk;
      else (more ??= [first]).push(chunk);
      size += chunk.length;
      if (size >= cap) {
        cleanup();
        // Destroying emits RequestAbortedError; nobody needs it, but an unheard 'error' would crash the process.
        body.on('error', noop);
        body.destroy();
        resolve(collected());
      }
    };
    const onEnd = (): void => {
      cleanup();
      resolve(collected());
    };
    const onError = (err: Error): void => {
      cleanup();
      body.on('error', noop);
      reject(err);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
}
