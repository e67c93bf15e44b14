// The packages' public doors: @hookline/core and @hookline/receiver name every subpath they export (no wildcards), each
// with its source, types and built file, and no runtime source of ours imports one of them by a path they do not export.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ImportEdge, importGraph, sourceFiles } from './import-graph.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The packages whose doors are checked (those other packages import). */
const LIBRARIES = ['core', 'receiver'];

type Exports = Record<string, Record<string, unknown>>;
const exportsOf = (pkg: string): Exports =>
  JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8')).exports;

/** `@hookline/<pkg>` imports in `edges` whose subpath `pkg` does not export, one line each. */
function closedDoors(edges: readonly ImportEdge[], exportsByPackage: Record<string, Exports>): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const m = /^@hookline\/([^/]+)(\/.*)?$/.exec(e.specifier);
    const exports = m ? exportsByPackage[m[1]!] : undefined;
    if (!m || !exports) continue;
    const subpath = `.${m[2] ?? ''}`;
    if (!Object.hasOwn(exports, subpath))
      out.push(`${e.from} imports ${e.specifier}: not an export of @hookline/${m[1]}`);
  }
  return out;
}

const allExports = () => Object.fromEntries(LIBRARIES.map((p) => [p, exportsOf(p)]));
const runtimeEdges = () =>
  importGraph(
    ROOT,
    readdirSync(join(ROOT, 'packages')).flatMap((p) => sourceFiles(ROOT, `packages/${p}/src`)),
  );

test('exports: every @hookline/core and @hookline/receiver import in packages/*/src names an exported subpath', () => {
  const edges = runtimeEdges();
  const ours = edges.filter((e) => /^@hookline\/(core|receiver)\//.test(e.specifier));
  assert.ok(ours.length > 3, `found ${ours.length} subpath imports: the reader is broken`);
  assert.deepEqual(closedDoors(edges, allExports()), []);
});

test('exports: a planted deep import from the server, a type-only one too, is refused', () => {
  const planted: ImportEdge[] = [
    { from: 'packages/server/src/x.ts', specifier: '@hookline/core/duration.ts', to: null, typeOnly: false },
    { from: 'packages/server/src/y.ts', specifier: '@hookline/receiver/handler.ts', to: null, typeOnly: true },
    { from: 'packages/server/src/z.ts', specifier: '@hookline/core/config', to: null, typeOnly: false },
  ];
  assert.deepEqual(closedDoors(planted, allExports()), [
    'packages/server/src/x.ts imports @hookline/core/duration.ts: not an export of @hookline/core',
    'packages/server/src/y.ts imports @hookline/receiver/handler.ts: not an export of @hookline/receiver',
  ]);
});

for (const pkg of LIBRARIES) {
  test(`exports: @hookline/${pkg} names each subpath, with source, types and built file`, () => {
    for (const [subpath, target] of Object.entries(exportsOf(pkg))) {
      assert.ok(!subpath.includes('*'), `${pkg} exports the wildcard ${subpath}: name the subpath instead`);
      const source = target.source as string;
      assert.ok(existsSync(join(ROOT, 'packages', pkg, source)), `${pkg} ${subpath}: ${source} does not exist`);
      // Test support is for our own tests (run from sources); it is not published. The signing vectors too: the one
      // copy, read by the receiver's verifier tests and core's signer tests.
      if (subpath === './testing' || subpath === './test-vectors.json') continue;
      // The receiver's dual build nests its types and files under import/require.
      const builds = (pkg === 'receiver' ? [target.import, target.require] : [target]) as Array<Record<string, string>>;
      for (const b of builds) {
        assert.ok(b?.types?.startsWith('./dist/') && b.types.endsWith('.d.ts'), `${pkg} ${subpath}: types`);
        assert.equal(b.types.replace(/\.d\.ts$/, '.js'), b.default, `${pkg} ${subpath}: default beside its types`);
        const dist = pkg === 'receiver' && b === target.require ? './dist/cjs/' : './dist/';
        assert.equal(
          b.default,
          source.replace(/^\.\/src\//, dist).replace(/\.ts$/, '.js'),
          `${pkg} ${subpath}: the built file of ${source}`,
        );
      }
    }
  });
}
