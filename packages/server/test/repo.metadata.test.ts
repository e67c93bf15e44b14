// What the repository says about itself stays consistent: one licence; two Node ranges — what the installed packages
// run on (20.18.1+, which undici 7 needs, 22 and 24) and what building the repository needs (Vite 7, which builds the
// console in `npm install`: 20.19+, 22.12+, 24) — in every package.json, its lock file and the README; a changelog in
// Keep a Changelog form.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const root = JSON.parse(read('package.json')) as { workspaces: string[] };
const manifests = ['', ...root.workspaces];
/** The packages a user installs (the console ships built): undici 7's range. */
const RUN_ENGINES = '^20.18.1 || ^22.0.0 || ^24.0.0';
/** The repository's own manifests, where `npm install` builds the console with Vite 7. */
const BUILD_ENGINES = '^20.19.0 || ^22.12.0 || ^24.0.0';
const BUILT_HERE = new Set(['', 'bench']);

test('every package.json says Apache-2.0, its Node range (run or build), a description and keywords; the lock file agrees', () => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { license?: string; engines?: { node?: string } }>;
  };
  for (const dir of manifests) {
    const pkg = JSON.parse(read(join(dir, 'package.json')));
    const at = `${dir || '.'}/package.json`;
    const ENGINES = BUILT_HERE.has(dir) ? BUILD_ENGINES : RUN_ENGINES;
    assert.equal(pkg.license, 'Apache-2.0', at);
    assert.deepEqual(pkg.engines, { node: ENGINES }, at);
    assert.ok(typeof pkg.description === 'string' && pkg.description.length > 20, `${at}: description`);
    assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.length > 0, `${at}: keywords`);
    assert.deepEqual(
      pkg.repository,
      { type: 'git', url: 'git+https://github.com/hookline/hookline.git', ...(dir ? { directory: dir } : {}) },
      `${at}: repository`,
    );
    assert.equal(pkg.bugs?.url, 'https://github.com/hookline/hookline/issues', `${at}: bugs`);
    assert.equal(lock.packages[dir]?.license, 'Apache-2.0', `package-lock.json "${dir}"`);
    assert.deepEqual(lock.packages[dir]?.engines, { node: ENGINES }, `package-lock.json "${dir}"`);
  }
});

test('the five packages a user installs are publishable: not private, public access, a files list', () => {
  for (const dir of ['packages/core', 'packages/server', 'packages/receiver', 'packages/client', 'packages/console']) {
    const pkg = JSON.parse(read(join(dir, 'package.json')));
    assert.notEqual(pkg.private, true, `${dir}: private`);
    assert.equal(pkg.publishConfig?.access, 'public', `${dir}: publishConfig.access`);
    assert.ok(Array.isArray(pkg.files) && pkg.files.length > 0, `${dir}: files`);
  }
});

test('LICENSE is the Apache License 2.0 and the README says so and names both Node ranges', () => {
  const license = read('LICENSE');
  assert.match(license, /^\s*Apache License\s+Version 2\.0, January 2004/);
  assert.match(license, /END OF TERMS AND CONDITIONS/);
  const readme = read('README.md');
  assert.match(readme, /Node\.js 20\.18\+, 22 or 24/);
  assert.match(readme, /Two commands, on a machine with Node\.js 20\.19\+, 22\.12\+ or 24/);
  assert.match(readme, /## License\n\nApache License 2\.0: \[LICENSE\]\(LICENSE\)/);
});

test("this process runs on a Node the repository's range admits", () => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  assert.ok(major >= 24 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19), process.versions.node);
});

test('CHANGELOG.md follows Keep a Changelog and starts with Unreleased', () => {
  const log = read('CHANGELOG.md');
  assert.match(log, /^# Changelog\n/);
  assert.match(log, /\[Keep a Changelog\]\(https:\/\/keepachangelog\.com\/en\/1\.1\.0\/\)/);
  const versions = [...log.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.equal(versions[0], '[Unreleased]');
  const kinds = [...log.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
  for (const kind of kinds)
    assert.ok(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(kind), `### ${kind}`);
});
