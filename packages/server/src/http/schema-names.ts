// Names for the shared JSON Schemas: the OpenAPI document lists each named one once (components.schemas) and refers to it.
// Routes keep the schema objects themselves, so Fastify validates and serialises exactly what it did before naming.

const names = new WeakMap<object, string>();

/** Marks `schema` as the component `name` and returns the same object (identity is what the document looks up). */
export function named<T extends object>(name: string, schema: T): T {
  const had = names.get(schema);
  if (had !== undefined && had !== name) throw new Error(`schema already named ${had}, not ${name}`);
  names.set(schema, name);
  return schema;
}

/** The component name given to this very object, if any. */
export function schemaName(schema: object): string | undefined {
  return names.get(schema);
}
