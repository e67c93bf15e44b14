// One way to make a catalog error: runtime sources call `fail(code, params, options)` (packages/core/src/errors.ts);
// only errors.ts itself constructs a HooklineError. Tests may build one to compare against.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './import-graph.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THE_CATALOG = 'packages/core/src/errors.ts';

/** Lines of `files` (path → text) that construct a HooklineError directly, as "path:line". */
function directConstructions(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    if (path === THE_CATALOG) continue;
    text.split('\n').forEach((line, i) => {
      if (/\bnew\s+HooklineError\s*\(/.test(line)) out.push(`${path}:${i + 1}`);
    });
  }
  return out;
}

test('errors: no runtime source outside errors.ts writes `new HooklineError(…)`; it calls fail()', () => {
  const files = new Map(
    ['core', 'server', 'receiver'].flatMap((p) =>
      sourceFiles(ROOT, `packages/${p}/src`).map((f) => [f, readFileSync(resolve(ROOT, f), 'utf8')] as const),
    ),
  );
  assert.ok(files.has(THE_CATALOG), 'the catalog was not read: the walk is broken');
  assert.deepEqual(directConstructions(files), []);
});

test('errors: a planted `new HooklineError(…)` is named by file and line', () => {
  const files = new Map([
    ['packages/server/src/x.ts', "import { fail } from '@hookline/core';\nthrow new HooklineError('not_found');\n"],
    ['packages/core/src/errors.ts', 'return new HooklineError(code, params, options);\n'],
    ['packages/core/src/y.ts', "throw fail('not_found');\n"],
  ]);
  assert.deepEqual(directConstructions(files), ['packages/server/src/x.ts:2']);
});
