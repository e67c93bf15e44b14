// Writes src/schema.ts, the client's types, from the committed packages/server/openapi.json (`npm run generate -w @hookline/client`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const DOCUMENT_URL = new URL('../../server/openapi.json', import.meta.url);
export const SCHEMA_PATH = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

const HEADER = `// Generated from packages/server/openapi.json by \`npm run generate -w @hookline/client\` (openapi-typescript); do not edit.
// Every component schema also has a top-level alias (\`Tenant\`, \`Endpoint\`, …) so callers can name it.
`;

/** The text of src/schema.ts for the document at `document` (the committed one by default). */
export async function generateSchema(document: URL = DOCUMENT_URL): Promise<string> {
  // rootTypes: one exported alias per component; without the prefix the names are the document's own.
  // emptyObjectsUnknown: a free-form `{type: 'object'}` (a batch item, an event type's schema) is any object, not `{}`.
  const ast = await openapiTS(document, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    rootTypesKeepCasing: true,
    emptyObjectsUnknown: true,
    silent: true,
  });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? SCHEMA_PATH;
  writeFileSync(out, await generateSchema());
  process.stdout.write(`wrote ${out}\n`);
}
