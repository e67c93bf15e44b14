// Maps anything thrown while handling a request to one catalog error: `{"error":{"code","message","request_id","details"?}}`.
import { fail, HooklineError, type Logger } from '@hookline/core';
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyRequest } from 'fastify';
import { detailsOf, validationError } from './validation.ts';

/** sqlite/pg failures that mean "the database is not reachable right now", not a bug: answered 503. */
const STORAGE_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_PROTOCOL',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'EIO',
  'ENOSPC',
  'EDQUOT',
  'EROFS', // the file system under a SQLite store
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300', // pg: admin shutdown, crash shutdown, cannot connect now, too many connections
]);

export function isStorageUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (STORAGE_CODES.has(code) || code.startsWith('SQLITE_IOERR') || code.startsWith('08')) return true;
    const msg = typeof e.message === 'string' ? e.message : '';
    if (
      /database connection is not open|Connection terminated|connection.*(closed|ended)|Client has encountered a connection error/i.test(
        msg,
      )
    )
      return true;
  }
  return false;
}

/** Path parameters (ids) are at most this long; longer segments are refused before routing. */
export const MAX_PARAM_LENGTH = 255;

/** Fastify's own errors by code. */
function fromFastify(err: FastifyError, req: FastifyRequest): HooklineError | null {
  if (err.validation) {
    // Every problem of the part that failed (path, then body, then query), each with its JSON Pointer.
    const details = detailsOf(err.validation as unknown as ErrorObject[], err.validationContext ?? 'body');
    return validationError(details.length ? details : [{ in: 'body', path: '', message: err.message }]);
  }
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return fail(
        'invalid_request',
        { detail: 'the path is not a valid URL (bad percent-encoding)' },
        { details: [{ in: 'path', path: '', message: 'is not a valid URL' }] },
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return fail(
        'invalid_request',
        { detail: `a path segment is longer than ${MAX_PARAM_LENGTH} characters` },
        { details: [{ in: 'path', path: '', message: `has a segment longer than ${MAX_PARAM_LENGTH} characters` }] },
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fail('body_too_large', { max: req.routeOptions.bodyLimit ?? 0 });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return fail('unsupported_media_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return fail('invalid_json');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 413) return fail('body_too_large', { max: req.routeOptions.bodyLimit ?? 0 });
    if (err.statusCode === 415) return fail('unsupported_media_type');
    return fail('invalid_request', { detail: err.message });
  }
  return null;
}

export function toHooklineError(err: unknown, req: FastifyRequest, logger: Logger): HooklineError {
  if (err instanceof HooklineError) return err;
  const known = err && typeof err === 'object' ? fromFastify(err as FastifyError, req) : null;
  if (known) return known;
  if (isStorageUnavailable(err)) {
    logger.log('error', 'storage unavailable', {
      request_id: req.id,
      method: req.method,
      url: req.url,
      error: (err as Error)?.message,
    });
    return fail('storage_unavailable', {}, { cause: err });
  }
  // Opaque to the client, complete in the log.
  logger.log('error', 'internal error', {
    request_id: req.id,
    method: req.method,
    url: req.url,
    error: (err as Error)?.message,
    stack: (err as Error)?.stack,
  });
  return fail('internal_error', {}, { cause: err });
}

export function errorBody(err: HooklineError, requestId: string) {
  return {
    error: {
      code: err.code,
      message: err.message,
      request_id: requestId,
      ...(err.details ? { details: err.details } : {}),
    },
  };
}
