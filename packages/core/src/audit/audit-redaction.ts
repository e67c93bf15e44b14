// What an audit entry never holds (docs/audit.md#redaction): the values of secret columns and of custom headers, and
// the diff of a row's columns before → after with those values replaced by `[redacted]`.
import type { FieldChange } from './audit-types.ts';

export const REDACTED = '[redacted]';

/**
 * A column (or detail) whose value is never written: signing secrets and keys, hashes of credentials, tokens,
 * passwords, OAuth and mTLS material. Matched on the name, so a column another change adds (`oauth_client_secret`,
 * `mtls_key_pem`) is redacted without touching this file.
 */
const SECRET_NAME =
  /secret|sealed|hash|token|password|passphrase|private|credential|cert|pem|oauth|mtls|signing_key|api_key$|^key$/i;

/** Columns whose value is a JSON object of header name → value: the names are kept, every value redacted. */
const HEADER_MAPS = /headers$/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A stored value as JSON can carry it: bytes as base64, big integers as text. */
function plain(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `base64:${Buffer.from(v).toString('base64')}`;
  if (v instanceof Date) return v.toISOString();
  return v;
}

function redactHeaders(v: unknown): unknown {
  let obj = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch {
      return REDACTED;
    }
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj === null ? null : REDACTED;
  return Object.fromEntries(Object.keys(obj).map((k) => [k, REDACTED]));
}

/** The value as an entry may show it. */
export function redactValue(name: string, v: unknown): unknown {
  const p = plain(v);
  if (p === null) return null;
  if (isSecretName(name)) return REDACTED;
  if (HEADER_MAPS.test(name)) return redactHeaders(p);
  return p;
}

/** Every key of a details object, redacted by name. */
export function redactDetails(details: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details ?? {})) out[k] = redactValue(k, v);
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

/**
 * The columns that differ between two snapshots of a row (null: no row), generic over the columns: a column another
 * change adds shows up here by itself. Values are compared raw and shown redacted, so a rotated secret column appears
 * as changed without its value.
 */
export function rowDiff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of [...names].sort()) {
    const b = before ? before[name] : undefined;
    const a = after ? after[name] : undefined;
    if (before && after && same(b, a)) continue;
    out[name] = { before: redactValue(name, b ?? null), after: redactValue(name, a ?? null) };
  }
  return out;
}
