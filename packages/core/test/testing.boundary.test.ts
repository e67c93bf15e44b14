// The runtime never imports test support: no file under packages/*/src (other than a *.test.ts beside the code)
// imports from a testing/ or test/ folder, a package's `/testing` entry, a test file, or node:test.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every module specifier a TypeScript source imports or re-exports, statically or dynamically. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"]+)\1/g)].map((m) => m[2]);
}

/** The specifiers of `file` (a path under the repository) that reach test support. */
function testSupportImports(file: string, source: string): string[] {
  return specifiers(source).filter((spec) => {
    if (spec === 'node:test' || spec.startsWith('node:test/')) return true;
    if (/^@hookline\/[^/]+\/(testing|test)(\/|$)/.test(spec)) return true;
    if (/\.test\.ts$/.test(spec)) return true;
    if (!spec.startsWith('.')) return false;
    const target = relative(root, resolve(root, dirname(file), spec)).split(sep);
    // packages/<pkg>/<folder>/…: the folder right under a package is where test support lives.
    return target[0] === 'packages' && (target[2] === 'testing' || target[2] === 'test');
  });
}

function runtimeFiles(): string[] {
  const files: string[] = [];
  for (const pkg of readdirSync(join(root, 'packages'))) {
    let entries: string[];
    try {
      entries = readdirSync(join(root, 'packages', pkg, 'src'), { recursive: true }) as string[];
    } catch {
      continue; // a package without src/
    }
    for (const e of entries)
      if (e.endsWith('.ts') && !e.endsWith('.test.ts')) files.push(join('packages', pkg, 'src', e));
  }
  return files.sort();
}

test('no runtime file under packages/*/src imports test support', () => {
  const files = runtimeFiles();
  for (const pkg of ['core', 'server', 'receiver'])
    assert.ok(
      files.some((f) => f.startsWith(join('packages', pkg, 'src'))),
      `scanned packages/${pkg}/src`,
    );
  const offending = files.flatMap((f) =>
    testSupportImports(f, readFileSync(join(root, f), 'utf8')).map((spec) => `${f} imports '${spec}'`),
  );
  assert.deepEqual(offending, []);
});

test('the check sees every way a runtime file could reach test support', () => {
  const file = join('packages', 'core', 'src', 'dispatch', 'x.ts');
  const source = [
    "import { settle } from '../../testing/settle.ts';",
    "import type { Received } from '../../testing/index.ts';",
    "export { within } from '../../test/fixtures/pg-test-db.ts';",
    "import {\n  runInboxConformance,\n} from '@hookline/receiver/testing';",
    "const m = await import('@hookline/core/testing');",
    "import { test } from 'node:test';",
    "import './next-state.test.ts';",
    "import { runUntilIdle } from './run-until-idle.ts'; // from '../../testing/settle.ts' in a comment",
    "import { createHookline } from '@hookline/core';",
    "import { parseDuration } from '@hookline/core/duration.ts';",
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(testSupportImports(file, source), [
    '../../testing/settle.ts',
    '../../testing/index.ts',
    '../../test/fixtures/pg-test-db.ts',
    '@hookline/receiver/testing',
    '@hookline/core/testing',
    'node:test',
    './next-state.test.ts',
  ]);
});
