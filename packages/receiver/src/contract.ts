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
