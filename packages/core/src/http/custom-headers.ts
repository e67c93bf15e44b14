// Custom headers of an endpoint (docs/rules.md#custom-headers): validated on save, sent on every attempt beneath the
// headers Hookline sets, and recorded with credential-looking values redacted.
import { fail, type HooklineError } from '../errors.ts';

export const CUSTOM_HEADER_LIMITS = {
  maxHeaders: 20,
  maxNameLength: 64,
  maxValueBytes: 1024,
  /** Names and values together, bytes of UTF-8. */
  maxTotalBytes: 8192,
} as const;

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab; no CR, LF, NUL or other controls (RFC 9110 field-value, without obs-text). */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Names Hookline owns or that HTTP reserves for the connection: hop-by-hop headers (RFC 9110 §7.6.1), framing and
 * routing (host, content-length), the wire format's content-type and user-agent (docs/rules.md#wire-request).
 */
const RESERVED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'expect',
  'user-agent',
  // W3C Trace Context: with tracing on, each attempt carries its own span's (docs/observability.md#traces).
  'traceparent',
  'tracestate',
]);
/** Every header of both signing schemes, present and future, lives under these prefixes (docs/rules.md#signing). */
const RESERVED_PREFIXES = ['x-webhook-', 'webhook-'];

/** Header names whose values are recorded as `[redacted]` in attempt records. */
const CREDENTIAL_NAME = /(auth|token|secret|key|password|passwd|cookie|session|signature|credential)/i;
export const REDACTED = '[redacted]';

function invalid(name: string, detail: string): HooklineError {
  return fail(
    'invalid_header',
    { name, detail },
    { details: [{ in: 'body', path: `/headers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: detail }] },
  );
}

/** Is the name one Hookline sets or HTTP reserves (case-insensitive)? */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p));
}

/** Validates an untrusted `{name: value}` object; returns it unchanged (names keep their case), or throws 400. */
export function parseCustomHeaders(input: unknown): Record<string, string> {
  if (input === null || input === undefined) return {};
  if (typeof input !== 'object' || Array.isArray(input))
    throw fail('invalid_request', {
      detail: 'headers must be an object of header names to string values',
    });
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > CUSTOM_HEADER_LIMITS.maxHeaders)
    throw fail('too_many_headers', { max: CUSTOM_HEADER_LIMITS.maxHeaders });
  const seen = new Set<string>();
  let total = 0;
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) throw invalid(name, "a header name is letters, digits and !#$%&'*+-.^_`|~ only");
    if (name.length > CUSTOM_HEADER_LIMITS.maxNameLength)
      throw invalid(name, `a header name is at most ${CUSTOM_HEADER_LIMITS.maxNameLength} characters`);
    const lower = name.toLowerCase();
    if (isReservedHeader(name)) throw invalid(name, 'Hookline sets this header or HTTP reserves it for the connection');
    if (seen.has(lower)) throw invalid(name, 'given twice (header names are case-insensitive)');
    seen.add(lower);
    if (typeof value !== 'string') throw invalid(name, 'the value must be a string');
    if (!FIELD_VALUE.test(value))
      throw invalid(name, 'the value holds CR, LF or another control or non-ASCII character');
    if (value !== value.trim()) throw invalid(name, 'the value must not start or end with whitespace');
    const bytes = Buffer.byteLength(value);
    if (bytes > CUSTOM_HEADER_LIMITS.maxValueBytes)
      throw invalid(name, `a value is at most ${CUSTOM_HEADER_LIMITS.maxValueBytes} bytes`);
    total += name.length + bytes;
    out[name] = value;
  }
  if (total > CUSTOM_HEADER_LIMITS.maxTotalBytes)
    throw fail('custom_headers_too_large', { max: CUSTOM_HEADER_LIMITS.maxTotalBytes });
  return out;
}

/**
 * The headers of one attempt: the endpoint's custom headers first, then the signed ones. A custom header never
 * replaces one Hookline sets: any custom name equal (case-insensitively) to a signed one is dropped, though
 * validation already refuses them.
 */
export function withCustomHeaders(
  custom: Readonly<Record<string, string>> | undefined,
  signed: Readonly<Record<string, string>>,
): Record<string, string> {
  if (!custom) return { ...signed };
  const taken = new Set(Object.keys(signed).map((n) => n.toLowerCase()));
  const out: Record<string, string> = {};
  for (const name in custom) if (!taken.has(name.toLowerCase()) && !isReservedHeader(name)) out[name] = custom[name];
  return Object.assign(out, signed);
}

/** The headers as an attempt records them: custom values whose name looks like a credential become `[redacted]`. */
export function recordedHeaders(
  custom: Readonly<Record<string, string>> | undefined,
  sent: Readonly<Record<string, string>>,
): Record<string, string> {
  if (!custom) return { ...sent };
  const out: Record<string, string> = { ...sent };
  for (const name in custom)
    if (name in out && out[name] === custom[name] && CREDENTIAL_NAME.test(name)) out[name] = REDACTED;
  return out;
}
