// The rules the code cites live in docs/rules.md: every `docs/rules.md#<anchor>` citation resolves, nothing cites the
// product owner's unpublished spec by section, and the doc's "pending" list matches the rules it marks pending.
import assert from 'node:assert/strict';
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = 'docs/rules.md';
const doc = readFileSync(join(ROOT, RULES), 'utf8');

/** Where code, tests and docs live; node_modules and dot-directories (bench/.results, .git) are not ours to check. */
const SCANNED = ['packages', 'bench', 'docs', 'scripts', '.ci', 'README.md'];
const TEXT = new Set([
  '.ts',
  '.mts',
  '.cts',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '.md',
  '.sql',
  '.sh',
  '.c',
  '.yml',
  '.yaml',
  '',
]);
// Built from parts so this file does not match itself.
const SPEC_SECTION = new RegExp('SPEC\\s*' + '\u00a7');

/** Every `<a id="…">` the doc defines, duplicates included (so a test can catch them). */
export function anchorsOf(markdown: string): string[] {
  return [...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
}

/** Every anchor a text cites as `rules.md#<anchor>` (`docs/rules.md#…` from code, `rules.md#…` between docs). */
export function citationsIn(text: string): string[] {
  return [...text.matchAll(/rules\.md#([A-Za-z0-9_-]+)/g)].map((m) => m[1]);
}

/** Each anchored heading's own text up to the next heading, by anchor. */
export function sectionsOf(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | null = null;
  for (const line of markdown.split('\n')) {
    if (/^#{1,6} /.test(line)) {
      current = /<a id="([^"]+)"><\/a>/.exec(line)?.[1] ?? null;
      if (current !== null) out.set(current, '');
      continue;
    }
    if (current !== null) out.set(current, `${out.get(current) + line}\n`);
  }
  return out;
}

/** Problems in one file's text against the defined anchors: section citations of the spec, unknown anchors. */
export function problemsIn(path: string, text: string, defined: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    if (SPEC_SECTION.test(line)) problems.push(`${at} cites the spec by section; cite a ${RULES} anchor instead`);
    for (const anchor of citationsIn(line))
      if (!defined.has(anchor)) problems.push(`${at} cites ${RULES}#${anchor}, which ${RULES} does not define`);
  });
  return problems;
}

function* files(path: string): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      yield path;
      return;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const full = join(path, e.name);
    if (e.isDirectory()) yield* files(full);
    else if (e.isFile() && TEXT.has(extname(e.name))) yield full;
  }
}

const defined = new Set(anchorsOf(doc));

test('docs/rules.md defines each anchor once, in the short lowercase form citations use', () => {
  const all = anchorsOf(doc);
  assert.ok(all.length >= 40, `only ${all.length} anchors in ${RULES}`);
  assert.deepEqual(
    all.filter((a, i) => all.indexOf(a) !== i),
    [],
    'anchors defined twice',
  );
  assert.deepEqual(
    all.filter((a) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(a)),
    [],
    'anchors not in kebab-case',
  );
});

test('every docs/rules.md#<anchor> cited in code, tests and docs exists, and nothing cites the spec by section', () => {
  const problems: string[] = [];
  let cited = 0;
  for (const root of SCANNED) {
    for (const file of files(join(ROOT, root))) {
      const text = readFileSync(file, 'utf8');
      cited += citationsIn(text).length;
      problems.push(...problemsIn(relative(ROOT, file), text, defined));
    }
  }
  assert.deepEqual(problems, []);
  // The code cites these rules throughout; finding almost none means the scan itself is broken.
  assert.ok(cited >= 50, `only ${cited} citations found`);
});

test('links inside docs/rules.md point at its own anchors', () => {
  const missing = [...doc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]).filter((a) => !defined.has(a));
  assert.deepEqual(missing, []);
});

test('the pending list names exactly the rules marked pending', () => {
  const sections = sectionsOf(doc);
  const pendingSection = sections.get('pending');
  assert.ok(pendingSection !== undefined, `${RULES} has no pending section`);
  const listed = [...pendingSection.matchAll(/^- \[[^\]]+\]\(#([^)]+)\)/gm)].map((m) => m[1]).sort();
  const marked = [...sections]
    .filter(([id, body]) => id !== 'pending' && /\*\*Pending[.:]\*\*/.test(body))
    .map(([id]) => id)
    .sort();
  assert.deepEqual(listed, marked);
});

test('the README links docs/rules.md', () => {
  assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /\]\(docs\/rules\.md\)/);
});

test('a stale anchor and a section citation of the spec are both reported', () => {
  const known = new Set(['breaker-open']);
  const text = [
    '// ok (docs/rules.md#breaker-open)',
    '// stale (docs/rules.md' + '#breaker-gone)',
    '// old (SPEC ' + '\u00a75)',
  ].join('\n');
  assert.deepEqual(problemsIn('x.ts', text, known), [
    `x.ts:2 cites ${RULES}#breaker-gone, which ${RULES} does not define`,
    `x.ts:3 cites the spec by section; cite a ${RULES} anchor instead`,
  ]);
});
