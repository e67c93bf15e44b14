// Migration numbers: both dialects ship the same versions, and every number missing below the highest is explained
// in the dialect's migrations/README.md (a gap is never filled in later, so it must be known, not an accident).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const STORE = fileURLToPath(new URL('../src/store/', import.meta.url));
const DIALECTS = ['sqlite', 'postgres'];

const versionsIn = (dir: string): number[] =>
  readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .map((f) => Number(f.slice(0, 3)))
    .sort((a, b) => a - b);

/** Numbers below the highest with no file, each not explained by a "- `NNN`:" line of the README, as "NNN". */
function unexplainedGaps(versions: readonly number[], readme: string): string[] {
  const explained = new Set([...readme.matchAll(/^- `(\d{3})`:/gm)].map((m) => Number(m[1])));
  const present = new Set(versions);
  const out: string[] = [];
  for (let v = 1; v <= Math.max(0, ...versions); v++)
    if (!present.has(v) && !explained.has(v)) out.push(String(v).padStart(3, '0'));
  return out;
}

test('migrations: both dialects ship the same version numbers', () => {
  const [sqlite, postgres] = DIALECTS.map((d) => versionsIn(join(STORE, d, 'migrations')));
  assert.ok(sqlite!.length >= 10, `read ${sqlite!.length} SQLite migrations`);
  assert.deepEqual(sqlite, postgres);
});

for (const dialect of DIALECTS) {
  test(`migrations: every gap in ${dialect}'s numbering is explained in its README`, () => {
    const dir = join(STORE, dialect, 'migrations');
    assert.deepEqual(unexplainedGaps(versionsIn(dir), readFileSync(join(dir, 'README.md'), 'utf8')), []);
  });
}

test('migrations: a planted gap without a README line is reported; an explained one is not', () => {
  const readme = '## Gaps\n\n- `012`: never shipped.\n';
  assert.deepEqual(unexplainedGaps([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14], readme), ['003']);
  assert.deepEqual(unexplainedGaps([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13], readme), []);
  // A mention in passing is not an explanation: the gap needs its own list entry.
  assert.deepEqual(unexplainedGaps([1, 3], 'we skipped 002 somehow'), ['002']);
});
