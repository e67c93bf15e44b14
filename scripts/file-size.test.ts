// The size rule: no hand-written file of ours (code, SQL, styles; runtime, tests, test support, scripts, bench) passes
// 400 lines. A file that grows past it becomes a folder along the seams its own sections show (CONTRIBUTING.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 400;
/** Where our hand-written files live. */
const ROOTS = ['packages', 'scripts', 'bench'];
const CHECKED = /\.(ts|tsx|mts|js|mjs|cjs|sql|css)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.results', '.cache']);

/** Written by a tool, not by hand (each has its own staleness test), or forward-only history that is never split. */
const EXEMPT: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /\.generated\.ts$/, why: 'generated (receiver SQL: npm run receiver:sql)' },
  { pattern: /^packages\/client\/src\/schema\.ts$/, why: 'generated from openapi.json (openapi-typescript)' },
  { pattern: /^packages\/core\/src\/store\/[^/]+\/schema\.sql$/, why: 'schema dump (npm run schema:dump)' },
  { pattern: /\/migrations\/[^/]+\.sql$/, why: 'migrations: numbered, forward-only, never edited' },
];

function ourFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED_DIRS.has(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (CHECKED.test(name)) out.push(relative(ROOT, p));
    }
  };
  for (const r of ROOTS) walk(join(ROOT, r));
  return out.sort();
}

/** A file's lines as an editor counts them (a final newline does not start another). */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** `files` (path → text) past the limit, each as "path: N lines", exempt and allowed ones left out. */
function oversized(files: ReadonlyMap<string, string>, allowed: readonly string[]): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    if (EXEMPT.some((e) => e.pattern.test(path)) || allowed.includes(path)) continue;
    const n = lineCount(text);
    if (n > MAX_LINES) out.push(`${path}: ${n} lines (the limit is ${MAX_LINES})`);
  }
  return out;
}

test(`size: no hand-written file passes ${MAX_LINES} lines`, () => {
  const files = new Map(ourFiles().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
  assert.ok(files.size > 300, `read ${files.size} files: the walk is broken`);
  assert.deepEqual(oversized(files, []), []);
});

test('size: a planted 401-line file is named with its length; 400 lines, an exempt dump and a migration pass', () => {
  const lines = (n: number) => 'x;\n'.repeat(n);
  const files = new Map([
    ['packages/core/src/big.ts', lines(401)],
    ['packages/core/src/edge.ts', lines(400)],
    ['packages/core/src/store/sqlite/schema.sql', lines(900)],
    ['packages/core/src/store/postgres/migrations/099_x.sql', lines(900)],
    ['packages/receiver/src/x.generated.ts', lines(900)],
  ]);
  assert.deepEqual(oversized(files, []), ['packages/core/src/big.ts: 401 lines (the limit is 400)']);
  assert.equal(lineCount('a\nb'), 2);
  assert.equal(lineCount('a\nb\n'), 2);
});
