// A small JSON-Schema subset for an event type's contract: type, required, properties, items, enum.

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** Only `required` fields are required; properties not listed are allowed (senders add fields). */
export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  required?: readonly string[];
  properties?: Readonly<Record<string, JsonSchema>>;
  items?: JsonSchema;
  enum?: readonly unknown[];
}

/**
 * The payload type a schema describes, for handlers' `event.payload` (through `defineEvent`): `required` fields are
 * present, other `properties` optional, `enum` values literal, `items` typed; what the schema leaves open is `unknown`.
 *
 * @example
 * type Shipped = SchemaPayload<{ type: 'object'; required: ['data']; properties: { data: { type: 'object'; required: ['order_id']; properties: { order_id: { type: 'string' } } } } }>;
 * // { data: { order_id: string } }
 */
export type SchemaPayload<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly type: 'array' }
    ? S extends { readonly items: infer I }
      ? SchemaPayload<I>[]
      : unknown[]
    : S extends { readonly type: 'object' } | { readonly properties: object } | { readonly required: readonly string[] }
      ? ObjectPayload<S>
      : S extends { readonly type: infer T }
        ? T extends readonly (infer U)[]
          ? TypePayload<U>
          : TypePayload<T>
        : unknown;

type TypePayload<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

type PropertiesOf<S> = S extends { readonly properties: infer P } ? P : Record<never, never>;
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? Extract<R, string> : never;
type ObjectPayload<S> = Flatten<
  { -readonly [K in RequiredOf<S>]: K extends keyof PropertiesOf<S> ? SchemaPayload<PropertiesOf<S>[K]> : unknown } & {
    -readonly [K in Exclude<keyof PropertiesOf<S>, RequiredOf<S>>]?: SchemaPayload<PropertiesOf<S>[K]>;
  }
>;
type Flatten<T> = { [K in keyof T]: T[K] };

export interface ContractViolation {
  readonly kind: 'missing' | 'invalid';
  /** Where it failed, e.g. `data.items[2].sku`; `(root)` for the payload itself. */
  readonly path: string;
  readonly detail: string;
}

/**
 * Returns the first violation, or undefined when the value satisfies the schema.
 *
 * @example
 * validateContract({ type: 'object', required: ['order_id'] }, { note: 'x' })
 * // { kind: 'missing', path: 'order_id', detail: 'required' }
 */
export function validateContract(schema: JsonSchema, value: unknown, path = ''): ContractViolation | undefined {
  const here = path === '' ? '(root)' : path;
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((type) => hasType(value, type))) {
      return { kind: 'invalid', path: here, detail: `expected ${types.join(' or ')}, got ${typeName(value)}` };
    }
  }
  if (schema.enum !== undefined && !schema.enum.some((allowed) => allowed === value)) {
    return {
      kind: 'invalid',
      path: here,
      detail: `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  if (isObject(value)) {
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(value, name)) return { kind: 'missing', path: join(path, name), detail: 'required' };
    }
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      if (!Object.hasOwn(value, name)) continue;
      const violation = validateContract(child, value[name], join(path, name));
      if (violation !== undefined) return violation;
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const violation = validateContract(schema.items, value[i], `${path}[${i}]`);
      if (violation !== undefined) return violation;
    }
  }
  return undefined;
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
