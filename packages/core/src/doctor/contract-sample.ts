// What the doctor reads from an event type's JSON Schema: the required fields of `data`, and a sample when no example is given.

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The top-level required property names of a schema for `data` (empty when it requires none or is not an object schema). */
export function requiredFields(schema: unknown): string[] {
  if (!isObject(schema) || !Array.isArray(schema.required)) return [];
  return schema.required.filter((name): name is string => typeof name === 'string');
}

/**
 * A minimal instance of a schema: `const`, the first `enum` value, `default`, or a placeholder of the declared type,
 * with every required property filled in. Enough for the doctor's events when the contract has no example.
 *
 * @example
 * sampleFromSchema({ type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } }) // { order_id: 'doctor' }
 */
export function sampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return {};
  if (Object.hasOwn(schema, 'const')) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Object.hasOwn(schema, 'default')) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sampleFromSchema(options[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.exclusiveMinimum === 'number'
          ? Math.floor(schema.exclusiveMinimum) + 1
          : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: Math.min(min, 8) }, () => sampleFromSchema(schema.items, depth + 1));
    }
    default: {
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
      for (const name of requiredFields(schema)) out[name] = sampleFromSchema(properties[name], depth + 1);
      return out;
    }
  }
}

function sampleString(schema: Schema): string {
  if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1)).toISOString();
  if (schema.format === 'date') return '2026-01-01';
  if (schema.format === 'email') return 'doctor@example.com';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/doctor';
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return 'doctor'.padEnd(min, 'x');
}
