// Payload filters (docs/filters.md): a small JSON filter on an event's envelope, validated on save, evaluated at fan-out.
import { fail, type HooklineError } from '../errors.ts';

/** A JSON scalar a condition compares with (objects and arrays are not compared). */
export type FilterScalar = string | number | boolean | null;

/** One dotted path and one or more operators; every operator given must hold. */
export interface FilterCondition {
  path: string;
  equals?: FilterScalar;
  in?: FilterScalar[];
  exists?: boolean;
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export type PayloadFilter = { all: PayloadFilter[] } | { any: PayloadFilter[] } | FilterCondition;

/** The bounds a saved filter must keep; the evaluator's cost is linear in the filter's size. */
export const FILTER_LIMITS = {
  /** Serialized as JSON, at most this many bytes. */
  maxBytes: 4096,
  /** `all`/`any` nest at most this deep (a bare condition is depth 1). */
  maxDepth: 5,
  /** Conditions and groups together. */
  maxNodes: 64,
  /** Items of one `all`/`any`. */
  maxGroupItems: 20,
  /** Values of one `in`. */
  maxInItems: 100,
  maxPathLength: 256,
  maxPathSegments: 16,
  maxStringLength: 1024,
} as const;

/** The envelope's top-level fields: a path starts with one of them (`data.status`, `type`). */
export const ENVELOPE_FIELDS = ['event_id', 'type', 'version', 'occurred_at', 'data'] as const;

const OPERATORS = ['equals', 'in', 'exists', 'gt', 'gte', 'lt', 'lte'] as const;
const NUMERIC = ['gt', 'gte', 'lt', 'lte'] as const;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** A bad filter: `pointer` is the JSON Pointer of the offending part inside the filter (`/all/1/gt`). */
function invalid(pointer: string, detail: string): HooklineError {
  return fail(
    'invalid_filter',
    { path: pointer === '' ? '/' : pointer, detail },
    {
      details: [{ in: 'body', path: `/payload_filter${pointer}`, message: detail }],
    },
  );
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkScalar(v: unknown, pointer: string): FilterScalar {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw invalid(pointer, 'must be a finite number');
    return v;
  }
  if (typeof v === 'string') {
    if (v.length > FILTER_LIMITS.maxStringLength)
      throw invalid(pointer, `strings are at most ${FILTER_LIMITS.maxStringLength} characters`);
    return v;
  }
  throw invalid(pointer, 'must be a string, number, boolean or null');
}

function checkPath(v: unknown, pointer: string): string {
  if (typeof v !== 'string' || v === '')
    throw invalid(pointer, 'path must be a non-empty dotted path such as data.status');
  if (v.length > FILTER_LIMITS.maxPathLength)
    throw invalid(pointer, `path is at most ${FILTER_LIMITS.maxPathLength} characters`);
  const segments = v.split('.');
  if (segments.length > FILTER_LIMITS.maxPathSegments)
    throw invalid(pointer, `path has at most ${FILTER_LIMITS.maxPathSegments} segments`);
  for (const s of segments)
    if (!SEGMENT.test(s)) throw invalid(pointer, `path segment '${s}' must be letters, digits, _ or -`);
  if (!(ENVELOPE_FIELDS as readonly string[]).includes(segments[0])) {
    throw invalid(
      pointer,
      `path must start with one of ${ENVELOPE_FIELDS.join(', ')} (the envelope's fields), got '${segments[0]}'`,
    );
  }
  return v;
}

/**
 * Validates an untrusted filter and returns it normalised (known keys only, in a fixed order), or throws 400
 * `invalid_filter` naming the JSON Pointer of the first bad part. `null` means "no filter".
 */
export function parsePayloadFilter(input: unknown): PayloadFilter | null {
  if (input === null || input === undefined) return null;
  const size = Buffer.byteLength(JSON.stringify(input) ?? '');
  if (size > FILTER_LIMITS.maxBytes)
    throw invalid('', `filter is at most ${FILTER_LIMITS.maxBytes} bytes of JSON, got ${size}`);
  const budget = { nodes: 0 };
  return parseNode(input, '', 1, budget);
}

function parseNode(v: unknown, pointer: string, depth: number, budget: { nodes: number }): PayloadFilter {
  if (!isPlainObject(v))
    throw invalid(pointer, 'must be an object: a condition {"path", operator…} or a group {"all": […]} / {"any": […]}');
  if (++budget.nodes > FILTER_LIMITS.maxNodes)
    throw invalid(pointer, `a filter holds at most ${FILTER_LIMITS.maxNodes} conditions and groups`);
  const keys = Object.keys(v);
  for (const group of ['all', 'any'] as const) {
    if (!(group in v)) continue;
    if (keys.length !== 1)
      throw invalid(pointer, `a group has only its "${group}" key, got ${keys.map((k) => `"${k}"`).join(', ')}`);
    if (depth >= FILTER_LIMITS.maxDepth)
      throw invalid(`${pointer}/${group}`, `groups nest at most ${FILTER_LIMITS.maxDepth - 1} deep`);
    const items = v[group];
    if (!Array.isArray(items) || items.length === 0)
      throw invalid(`${pointer}/${group}`, 'must be a non-empty array of filters');
    if (items.length > FILTER_LIMITS.maxGroupItems)
      throw invalid(`${pointer}/${group}`, `holds at most ${FILTER_LIMITS.maxGroupItems} filters`);
    const parsed = items.map((item, i) => parseNode(item, `${pointer}/${group}/${i}`, depth + 1, budget));
    return group === 'all' ? { all: parsed } : { any: parsed };
  }
  for (const k of keys) {
    if (k !== 'path' && !(OPERATORS as readonly string[]).includes(k)) {
      throw invalid(
        `${pointer}/${k}`,
        `unknown key; a condition has "path" and operators ${OPERATORS.join(', ')}; groups are "all" and "any"`,
      );
    }
  }
  if (!('path' in v)) throw invalid(pointer, 'a condition needs a "path"');
  const out: FilterCondition = { path: checkPath(v.path, `${pointer}/path`) };
  if (!OPERATORS.some((op) => op in v))
    throw invalid(pointer, `a condition needs at least one operator: ${OPERATORS.join(', ')}`);
  if ('equals' in v) out.equals = checkScalar(v.equals, `${pointer}/equals`);
  if ('in' in v) {
    const list = v.in;
    if (!Array.isArray(list) || list.length === 0)
      throw invalid(`${pointer}/in`, 'must be a non-empty array of values');
    if (list.length > FILTER_LIMITS.maxInItems)
      throw invalid(`${pointer}/in`, `holds at most ${FILTER_LIMITS.maxInItems} values`);
    out.in = list.map((x, i) => checkScalar(x, `${pointer}/in/${i}`));
  }
  if ('exists' in v) {
    if (typeof v.exists !== 'boolean') throw invalid(`${pointer}/exists`, 'must be true or false');
    out.exists = v.exists;
  }
  for (const op of NUMERIC) {
    if (!(op in v)) continue;
    const n = v[op];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(`${pointer}/${op}`, 'must be a finite number');
    out[op] = n;
  }
  return out;
}

/** The value at a dotted path, or undefined when any step is missing; array items by index. Own properties only. */
export function valueAt(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (isPlainObject(cur)) {
      if (!Object.hasOwn(cur, seg)) return undefined;
      cur = cur[seg];
    } else {
      return undefined;
    }
  }
  return cur;
}

function conditionHolds(c: FilterCondition, envelope: unknown): boolean {
  const v = valueAt(envelope, c.path);
  if (c.exists !== undefined && (v !== undefined) !== c.exists) return false;
  // Strict JSON equality: 1 and "1" differ; an object or array never equals a scalar.
  if (c.equals !== undefined && v !== c.equals) return false;
  if (c.in !== undefined && !c.in.includes(v as FilterScalar)) return false;
  if (c.gt !== undefined || c.gte !== undefined || c.lt !== undefined || c.lte !== undefined) {
    // Numeric comparisons hold only for numbers: a missing field or a numeric string never matches.
    if (typeof v !== 'number') return false;
    if (c.gt !== undefined && !(v > c.gt)) return false;
    if (c.gte !== undefined && !(v >= c.gte)) return false;
    if (c.lt !== undefined && !(v < c.lt)) return false;
    if (c.lte !== undefined && !(v <= c.lte)) return false;
  }
  return true;
}

/** Does the envelope (`{event_id, type, version, occurred_at, data}`) pass the filter? A pure function; never throws. */
export function matchesFilter(filter: PayloadFilter, envelope: unknown): boolean {
  if ('all' in filter) return filter.all.every((f) => matchesFilter(f, envelope));
  if ('any' in filter) return filter.any.some((f) => matchesFilter(f, envelope));
  return conditionHolds(filter, envelope);
}
