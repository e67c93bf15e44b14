// Maps an HTTP status or a transport error to its outcome (docs/rules.md#outcome-classes) and Hookline's error class.
import type { ErrorClass } from '../domain.ts';
import type { OutcomeClass } from '../policy/types.ts';
import { REFUSED_ADDRESS_CODE } from './guarded-lookup.ts';
import { PROXY_AUTH_FAILED_CODE, PROXY_REFUSED_CODE, PROXY_UNREACHABLE_CODE } from './proxy-tunnel.ts';

/** 2xx success; 5xx and 429 delivery failure; 3xx (never followed), 1xx leftovers and other 4xx client error. */
export function outcomeForStatus(status: number): OutcomeClass {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 500 || status === 429) return 'delivery_failure';
  return 'client_error';
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
]);
const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'EAI_ADDRFAMILY',
  'ENODATA',
  'ESERVFAIL',
]);
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'HOSTNAME_MISMATCH',
]);

function tlsCode(code: string): boolean {
  return (
    TLS_CODES.has(code) ||
    code.startsWith('CERT_') ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_OSSL_')
  );
}

function classOfCode(code: string): ErrorClass | null {
  if (code === REFUSED_ADDRESS_CODE) return 'refused_address';
  if (code === PROXY_UNREACHABLE_CODE) return 'proxy_unreachable';
  if (code === PROXY_REFUSED_CODE) return 'proxy_refused';
  if (code === PROXY_AUTH_FAILED_CODE) return 'proxy_auth_failed';
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  if (DNS_CODES.has(code)) return 'dns';
  if (tlsCode(code)) return 'tls';
  return null;
}

/**
 * The class of a failure that produced no HTTP status. undici and node wrap errors (cause, AggregateError
 * from happy eyeballs), so the chain is searched; anything unrecognised is a connection failure, which is
 * what a receiver-side fault looks like from here (refused, reset, EPIPE, closed early).
 */
export function classifyTransportError(err: unknown): ErrorClass {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  let tlsHint = false;
  while (queue.length > 0 && seen.size < 8) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, cause, errors, library, message } = e as {
      code?: unknown;
      cause?: unknown;
      errors?: unknown;
      library?: unknown;
      message?: unknown;
    };
    if (typeof code === 'string') {
      const cls = classOfCode(code);
      if (cls !== null) return cls;
    }
    // OpenSSL failures carry `library: 'SSL routines'`; handshake resets say so only in the message.
    if (
      library === 'SSL routines' ||
      (typeof message === 'string' && /\b(TLS|SSL)\b|certificate|handshake/i.test(message))
    )
      tlsHint = true;
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return tlsHint ? 'tls' : 'connection';
}

/** A short message for the attempt log: the code when there is one, then the message. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const text = err.message || err.name;
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return String(err);
}
