// The committed src/schema.ts is what `npm run generate -w @hookline/client` makes of the committed openapi.json.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ownChild } from '@hookline/core/testing';
import { DOCUMENT_URL, generateSchema, SCHEMA_PATH } from '../scripts/generate.ts';

const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs the generator script as `npm run generate` does, writing to `out`. */
function runGenerator(out: string, after: (fn: () => void) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/generate.ts', out],
      { cwd: CLIENT_DIR },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`generator failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    ownChild(child, after);
  });
}

test('packages/client/src/schema.ts is current with packages/server/openapi.json', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-client-schema-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'schema.ts');
  await runGenerator(out, t.after.bind(t));
  const committed = readFileSync(SCHEMA_PATH, 'utf8');
  assert.ok(
    readFileSync(out, 'utf8') === committed,
    'src/schema.ts is stale: run `npm run generate -w @hookline/client` and commit the result',
  );
  assert.match(committed.split('\n')[0], /^\/\/ Generated from packages\/server\/openapi\.json .*do not edit\.$/);
});

test('a change to the document changes the generated client (the check above can fail)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-client-schema-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const doc = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8'));
  doc.components.schemas.Tenant.properties.plan = { type: 'string' };
  doc.components.schemas.Tenant.required.push('plan');
  const changed = join(dir, 'openapi.json');
  writeFileSync(changed, JSON.stringify(doc));
  const generated = await generateSchema(pathToFileURL(changed));
  assert.notEqual(generated, readFileSync(SCHEMA_PATH, 'utf8'));
  const start = generated.indexOf('        Tenant: {');
  const tenantBlock = generated.slice(start, generated.indexOf('\n        };', start));
  assert.ok(start >= 0 && /\bplan: string;/.test(tenantBlock), 'the Tenant type gained the new required field');
});

test('every component schema of the document has an exported type of the same name', () => {
  const doc = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const schema = readFileSync(SCHEMA_PATH, 'utf8');
  const names = Object.keys(doc.components.schemas);
  for (const name of ['Tenant', 'Endpoint', 'Event', 'Delivery', 'Attempt', 'Replay', 'Error'])
    assert.ok(names.includes(name), name);
  for (const name of names)
    assert.ok(schema.includes(`\nexport type ${name} = components['schemas']['${name}'];\n`), name);
});
