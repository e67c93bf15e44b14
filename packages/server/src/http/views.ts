// The building blocks of the API's JSON representations (snake_case, ISO-8601 times, prefixed ids): schema
// primitives, the error body and list pages. Each resource's own schema and view live beside its routes.
import { ENVIRONMENTS } from '@hookline/core';
import { named, schemaName } from './schema-names.ts';

type Schema = Record<string, unknown>;

// The last time formatted: an accepted event's answer shows one instant three times (the event's created_at, its
// delivery's created_at and updated_at), and concurrent answers mostly share the millisecond.
let lastMs = Number.NaN;
let lastIso = '';

export const iso = (ms: number | null | undefined): string | null => {
  if (ms === null || ms === undefined) return null;
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};

export const str = { type: 'string' } as const;
export const time = { type: 'string', format: 'date-time' } as const;
export const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;
export const nullableStr = { type: ['string', 'null'] } as const;
export const nullableInt = { type: ['integer', 'null'] } as const;
export const int = { type: 'integer' } as const;
export const bool = { type: 'boolean' } as const;
export const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
/** docs/rules.md#environments: every tenant, and so each of its deliveries, attempts and notices, is test or live. */
export const environment = {
  type: 'string',
  enum: [...ENVIRONMENTS],
  description: "The tenant's environment (test or live), fixed at its creation.",
} as const;

/** An object schema whose every property is required. */
export function obj(properties: Record<string, unknown>, description?: string): Schema {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties), properties };
}

/** One problem with one field: `in` the body, query or path, at the JSON Pointer `path`. */
export const ErrorDetailSchema = named(
  'ErrorDetail',
  obj({
    in: { type: 'string', enum: ['body', 'query', 'path'] },
    path: {
      type: 'string',
      description: 'JSON Pointer (RFC 6901) into the part, e.g. /name or /events/0/type; empty for the part itself.',
    },
    message: str,
  }),
);

const errorObject = obj({ code: str, message: str, request_id: str });
export const ErrorSchema = named(
  'Error',
  obj(
    {
      error: {
        ...errorObject,
        properties: {
          ...(errorObject.properties as object),
          details: {
            type: 'array',
            maxItems: 100,
            items: ErrorDetailSchema,
            description: 'Every problem found, on errors about specific fields (validation); absent otherwise.',
          },
        },
      },
    },
    'An error from the catalog (docs/errors.md).',
  ),
);

const pages = new Map<string, Schema>();
/** One page of a list; a page of a named item is named too (`TenantPage`), once, whichever route asks first. */
export function pageSchema(item: Schema): Schema {
  const itemName = schemaName(item);
  if (itemName !== undefined && pages.has(itemName)) return pages.get(itemName)!;
  const page = obj({
    items: { type: 'array', items: item },
    next_cursor: { ...nullableStr, description: 'Pass as `cursor` for the next page; null on the last page.' },
  });
  if (itemName !== undefined) pages.set(itemName, named(`${itemName}Page`, page));
  return page;
}
