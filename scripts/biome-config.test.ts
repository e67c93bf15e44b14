// The repository's Biome configuration really lints: noImportCycles fails a two-file cycle, one closed only through
// `import type` too (ignoreTypes: false), so the rule cannot be silently off or narrowed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

/** Lints `files` in a fresh folder holding a copy of the repository's biome.jsonc (no git there, so no VCS). */
function lint(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-biome-'));
  try {
    copyFileSync(join(ROOT, 'biome.jsonc'), join(dir, 'biome.jsonc'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const run = spawnSync(BIOME, ['lint', '--vcs-enabled=false', '--colors=off', '.'], { cwd: dir, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('biome: two modules that import each other fail the lint with noImportCycles', () => {
  const run = lint({
    'a.ts': "import { b } from './b.ts';\n\nexport const a = (): number => b() + 1;\n",
    'b.ts': "import { a } from './a.ts';\n\nexport const b = (): number => 1;\nexport const c = (): number => a();\n",
  });
  assert.notEqual(run.status, 0, run.output);
  assert.match(run.output, /lint\/suspicious\/noImportCycles/);
});

test('biome: the same two modules without the cycle pass (the failure above is the cycle, not the setup)', () => {
  const run = lint({
    'a.ts': "import { b } from './b.ts';\n\nexport const a = (): number => b() + 1;\n",
    'b.ts': 'export const b = (): number => 1;\n',
  });
  assert.equal(run.status, 0, run.output);
});

test('biome: a cycle closed only through `import type` fails the lint too (ignoreTypes: false)', () => {
  const run = lint({
    'a.ts':
      "import { b } from './b.ts';\n\nexport interface A {\n  n: number;\n}\nexport const a = (): number => b();\n",
    'b.ts':
      "import type { A } from './a.ts';\n\nexport const b = (): number => 1;\nexport const c = (x: A): number => x.n;\n",
  });
  assert.notEqual(run.status, 0, run.output);
  assert.match(run.output, /lint\/suspicious\/noImportCycles/);
});
