// The default per-test timeout (scripts/per-test-timeout/, loaded by scripts/test.sh): a planted test file whose
// second test never ends fails that test by name once the default passes, the tests around it still run, and a test
// naming its own timeout keeps it. The default is shortened to 1 s for the plant (HOOKLINE_TEST_PER_TEST_TIMEOUT_MS).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { within } from '../../packages/core/testing/deadline.ts';

const preload = fileURLToPath(new URL('./preload.mjs', import.meta.url));

// A hang as a deadlock is: something (here a timer) keeps the process alive while the test's promise never settles.
const PLANT = `import { describe, it, test } from 'node:test';
const hang = () => new Promise(() => setInterval(() => {}, 1000));
test('before', () => {});
test('planted hang', hang);
test('after', () => {});
test('names its own timeout', { timeout: 60000 }, () => new Promise((r) => setTimeout(r, 1500)));
describe('a suite', () => { it('planted hang in a suite', hang); });
`;

/** This process's environment for a runner of its own: without node:test's mark of a file under a runner. */
function plantEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: `--import=${preload}`,
    HOOKLINE_TEST_PER_TEST_TIMEOUT_MS: '1000',
  };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

test('a test that never ends fails by name after the default per-test timeout; the file goes on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-per-test-timeout-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'plant.test.mjs');
  writeFileSync(file, PLANT);
  // The plant's runner dies with this test, even when the deadline below is what ends it.
  const stop = new AbortController();
  t.after(() => stop.abort());
  // The file bound (--test-timeout) is far above the default: only the per-test timeout can end these tests.
  const out = await within(
    'the planted file',
    60_000,
    new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        ['--test', '--test-timeout=600000', '--test-force-exit', '--test-reporter=tap', file],
        {
          cwd: dir,
          env: plantEnv(),
          signal: stop.signal,
        },
        (_err, stdout, stderr) => resolve(stdout + stderr),
      ),
    ),
  );
  const verdicts = [...out.matchAll(/^\s*(ok|not ok) \d+ - (.*?)(?: # .*)?$/gm)].map(([, v, name]) => `${v}: ${name}`);
  for (const line of [
    'ok: before',
    'not ok: planted hang',
    'ok: after',
    'ok: names its own timeout',
    'not ok: planted hang in a suite',
  ])
    assert.ok(verdicts.includes(line), `${line}\n${out}`);
  assert.equal(out.match(/test timed out after 1000ms/g)?.length, 2, out);
});
