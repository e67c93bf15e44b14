// The receiver README's "Verify one request" example, run as a user runs it (node on an .mjs file), against this
// package's source (tsx resolved from the package, so the child runs with it as its working directory).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ownChild, within } from '@hookline/core/testing';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'hl-receiver-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('verifyWebhook(headers, rawBody, options): the example runs and prints what its comments promise', async () => {
  const block = /<!-- verify-example[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has the verify-example block');
  const code = block[1]!;
  assert.match(code, /from '@hookline\/receiver'/);
  // Every kid in the example looks like the ones Hookline gives out (sec_ + 26 characters of a sortable id).
  for (const [, kid] of code.matchAll(/kid: '([^']*)'/g)) assert.match(kid!, /^sec_[0-9A-Z]{26}$/);
  const file = join(dir, 'verify-example.mjs');
  writeFileSync(file, code.replace("'@hookline/receiver'", `'${new URL('../src/index.ts', import.meta.url).href}'`));
  const stdout = await within(
    'the example to run',
    30_000,
    new Promise<string>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', file],
        { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 30_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
      ownChild(child, after);
    }),
  );
  const promised = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]!.replace(/ \(.*\)$/, ''));
  assert.deepEqual(stdout.trim().split('\n'), promised);
  assert.deepEqual(promised, ['hookline evt_01JGZ7A1', '401 signature_mismatch', '500 invalid_argument']);
});
