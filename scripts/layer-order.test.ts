// The layer order holds: every import in packages/{core,server,receiver}/src goes to its own or a lower layer
// (scripts/layer-order.ts), and the check itself fails on planted upward imports, type-only ones included.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importGraph, importsOf, sourceFiles } from './import-graph.ts';
import { checkLayers, LAYERS } from './layer-order.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const edgesOf = (root: string, pkg: string) => importGraph(root, sourceFiles(root, `packages/${pkg}/src`));

for (const pkg of Object.keys(LAYERS)) {
  test(`layers: every import in packages/${pkg}/src goes to its own or a lower layer`, () => {
    const edges = edgesOf(ROOT, pkg);
    assert.ok(edges.length > 20, `read ${edges.length} imports in packages/${pkg}/src: the reader is broken`);
    const report = checkLayers(pkg, edges);
    assert.deepEqual(report.violations, [], report.violations.join('\n'));
    assert.deepEqual(report.unusedExceptions, [], 'KNOWN_EXCEPTIONS lists an upward import that is gone: delete it');
  });
}

test('layers: the import reader tells type-only imports from value imports, multi-line and re-exports included', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type { B } from './b.ts';",
    'import {',
    '  type C,',
    '  d,',
    "} from './cd.ts';",
    "export type { E } from './e.ts';",
    "export { f } from './f.ts';",
    "import './side-effect.ts';",
    "export const g = () => import('./lazy.ts');",
    "export const h = 'not an import from here';",
  ].join('\n');
  assert.deepEqual(importsOf(text), [
    { specifier: './a.ts', typeOnly: false },
    { specifier: './b.ts', typeOnly: true },
    { specifier: './cd.ts', typeOnly: false },
    { specifier: './e.ts', typeOnly: true },
    { specifier: './f.ts', typeOnly: false },
    { specifier: './side-effect.ts', typeOnly: false },
    { specifier: './lazy.ts', typeOnly: false },
  ]);
});

test('layers: a planted upward import fails the check, a type-only one too (in-memory graph over the real one)', () => {
  const real = edgesOf(ROOT, 'core');
  const planted = (typeOnly: boolean) => ({
    from: 'packages/core/src/store/store.ts',
    specifier: '../hookline.ts',
    to: 'packages/core/src/hookline.ts',
    typeOnly,
  });
  for (const typeOnly of [false, true]) {
    const report = checkLayers('core', [...real, planted(typeOnly)]);
    assert.deepEqual(report.violations, [
      `packages/core/src/store/store.ts imports ../hookline.ts${typeOnly ? ' (type only)' : ''}: "store" (layer 5) may not import "hookline" (layer 12)`,
    ]);
  }
});

test('layers: planted files on disk — a type-only upward import, an unplaced module, an undeclared package', () => {
  const root = mkdtempSync(join(tmpdir(), 'hookline-layers-'));
  try {
    const src = join(root, 'packages', 'core', 'src');
    mkdirSync(join(src, 'policy'), { recursive: true });
    writeFileSync(join(src, 'hookline.ts'), "import { clock } from './clock.ts';\nexport const engine = clock;\n");
    writeFileSync(
      join(src, 'clock.ts'),
      "import type { engine } from './hookline.ts';\nexport const clock = 1;\nexport type E = typeof engine;\n",
    );
    writeFileSync(join(src, 'policy', 'rules.ts'), "import { x } from '@hookline/server';\nexport const y = x;\n");
    writeFileSync(join(src, 'gadget.ts'), "import { clock } from './clock.ts';\nexport const g = clock;\n");
    const report = checkLayers('core', edgesOf(root, 'core'), LAYERS.core, []);
    assert.deepEqual(report.violations, [
      'packages/core/src/clock.ts imports ./hookline.ts (type only): "clock" (layer 1) may not import "hookline" (layer 12)',
      'packages/core/src/gadget.ts: module "gadget" has no layer in scripts/layer-order.ts',
      'packages/core/src/policy/rules.ts imports @hookline/server: core does not depend on @hookline/server',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('layers: an exception lets its upward import through, and one that matches nothing is reported', () => {
  const edge = {
    from: 'packages/core/src/store/store.ts',
    specifier: '../outbox/x.ts',
    to: 'packages/core/src/outbox/x.ts',
    typeOnly: false,
  };
  const excused = checkLayers('core', [edge], LAYERS.core, ['core: store → outbox']);
  assert.deepEqual(excused, { violations: [], unusedExceptions: [] });
  const stale = checkLayers('core', [], LAYERS.core, ['core: store → outbox']);
  assert.deepEqual(stale.unusedExceptions, ['core: store → outbox']);
});
