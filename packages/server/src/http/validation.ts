// Request validation: Ajv without coercion for bodies (coercing only path and query strings), every error as a detail.

import { type ErrorDetail, fail, type HooklineError } from '@hookline/core';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** At most this many details in one reply; the message says how many there were. */
export const MAX_DETAILS = 100;

function ajv(coerceTypes: false | 'array'): Ajv {
  // allErrors: the caller fixes everything in one round trip. Bounded by the body limit (each error is a few bytes of
  // input) and by MAX_DETAILS in the reply.
  const a = new Ajv({
    coerceTypes,
    allErrors: true,
    useDefaults: true,
    removeAdditional: false,
    allowUnionTypes: true,
    strict: false,
  });
  addFormats(a);
  return a;
}

/** A body is JSON: `{"name":123}` is a number, never the tenant name "123". */
export const bodyAjv = ajv(false);
/** Path and query values are always strings on the wire: "?limit=20" is the integer 20 where the schema says so. */
const stringPartAjv = ajv('array');

/** For `app.setValidatorCompiler`: bodies validate strictly, the other parts with coercion. */
export function compileValidator({ schema, httpPart }: { schema: object; httpPart?: string }): ValidateFunction {
  return (httpPart === 'body' ? bodyAjv : stringPartAjv).compile(schema);
}

/** One reference token of a JSON Pointer (RFC 6901 §3: `~` → `~0`, `/` → `~1`). */
export function pointerToken(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

const PART: Record<string, ErrorDetail['in']> = { body: 'body', querystring: 'query', params: 'path' };

/** Ajv's errors as plain details: the field itself (a missing or unknown one included) and what is wrong with it. */
export function detailsOf(errors: readonly ErrorObject[], part: string, prefix = ''): ErrorDetail[] {
  const where = PART[part] ?? 'body';
  // A failed anyOf/oneOf reports each branch too; only the summary is useful to the caller.
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  for (const e of errors) {
    if (unions.some((u) => e.schemaPath.startsWith(u))) continue;
    const p = e.params as Record<string, unknown>;
    let path = prefix + e.instancePath;
    let message: string;
    switch (e.keyword) {
      case 'required':
        path += `/${pointerToken(String(p.missingProperty))}`;
        message = 'is required';
        break;
      case 'additionalProperties':
        path += `/${pointerToken(String(p.additionalProperty))}`;
        message = 'is not a known field';
        break;
      case 'propertyNames':
        path += `/${pointerToken(String(p.propertyName))}`;
        message = 'is not an allowed name';
        break;
      case 'type':
        message = `must be ${(Array.isArray(p.type) ? p.type : String(p.type).split(',')).join(' or ')}`;
        break;
      case 'enum':
        message = `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'anyOf':
      case 'oneOf':
        message = 'does not match any of the allowed forms';
        break;
      default:
        message = e.message ?? 'is invalid';
    }
    const key = `${path}\0${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ in: where, path, message });
  }
  return out;
}

/** `/name must be string; /url is required (+3 more)`: the one-line summary in `message`. */
export function summarise(details: readonly ErrorDetail[]): string {
  const shown = details
    .slice(0, 3)
    .map((d) => `${d.in === 'body' ? '' : `${d.in} `}${d.path || `(whole ${d.in})`} ${d.message}`);
  return shown.join('; ') + (details.length > 3 ? ` (+${details.length - 3} more, see details)` : '');
}

/** The 400 for a failed validation: summary in the message, every problem (up to MAX_DETAILS) in `details`. */
export function validationError(details: readonly ErrorDetail[]): HooklineError {
  return fail('invalid_request', { detail: summarise(details) }, { details: details.slice(0, MAX_DETAILS) });
}

/** A single field refused by a handler (a time, a reference): the same shape as a schema error. */
export function fieldError(where: ErrorDetail['in'], path: string, message: string): HooklineError {
  return validationError([{ in: where, path, message }]);
}
