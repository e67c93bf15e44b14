// Compiles each publishable package (a packages/* folder with a tsconfig.build.json) from src/ to dist/ with the
// TypeScript compiler: JavaScript, .d.ts and source maps, plus the files src/ reads at run time (.sql, .json, .mjs),
// so dist/ runs with no TypeScript loader. A package whose folder also holds tsconfig.cjs.json gets a CommonJS build
// in dist/cjs (its own {"type":"commonjs"}). A package with a vite.config.mjs instead (packages/console, React) is
// bundled by Vite into dist/ (static files; Vite 7 needs Node 20.19+). Packages are built after the @hookline packages
// they depend on (their types come from the dependency's dist/). Usage: node scripts/build.mjs [packages/receiver …]
// (default: all).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
/** What src/ reads at run time besides its modules (SQL statements and migrations, thread entries, JSON). */
const ASSET = /\.(sql|json|mjs)$/;

const named = process.argv.slice(2).map((p) => resolve(p));
const isVite = (dir) => existsSync(join(dir, 'vite.config.mjs'));
const buildable = (dir) => existsSync(join(dir, 'tsconfig.build.json')) || isVite(dir);
const all = readdirSync(join(root, 'packages'))
  .map((d) => join(root, 'packages', d))
  .filter(buildable);
const chosen = named.length > 0 ? named : all;
for (const dir of chosen)
  if (!buildable(dir)) fail(`${relative(root, dir) || dir}: no tsconfig.build.json or vite.config.mjs`);

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const byName = new Map(all.map((d) => [manifest(d).name, d]));
const order = [];
const visit = (dir, path = []) => {
  if (order.includes(dir)) return;
  if (path.includes(dir)) fail(`dependency cycle: ${[...path, dir].map((d) => relative(root, d)).join(' → ')}`);
  const m = manifest(dir);
  for (const dep of Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.peerDependencies })) {
    const d = byName.get(dep);
    if (d) visit(d, [...path, dir]);
  }
  order.push(dir);
};
for (const dir of chosen) visit(dir);

for (const dir of order) {
  const started = Date.now();
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  if (isVite(dir)) {
    vite(dir);
    console.log(`built ${relative(root, dir)} → dist/ with Vite (${Date.now() - started} ms)`);
    continue;
  }
  run(dir, 'tsconfig.build.json');
  copyAssets(join(dir, 'src'), join(dir, 'dist'));
  if (existsSync(join(dir, 'tsconfig.cjs.json'))) {
    run(dir, 'tsconfig.cjs.json');
    writeFileSync(join(dir, 'dist', 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
  }
  console.log(`built ${relative(root, dir)} → dist/ (${Date.now() - started} ms)`);
}

function run(dir, config) {
  try {
    execFileSync(process.execPath, [tsc, '-p', join(dir, config)], { cwd: dir, stdio: 'inherit' });
  } catch {
    fail(`tsc -p ${relative(root, join(dir, config))} failed`);
  }
}

function vite(dir) {
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(dir, 'vite.config.mjs')],
      { cwd: dir, stdio: 'inherit' },
    );
  } catch {
    fail(`vite build in ${relative(root, dir)} failed`);
  }
}

function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyAssets(source, join(to, entry.name));
    else if (ASSET.test(entry.name)) cpSync(source, join(to, entry.name));
  }
}

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}
