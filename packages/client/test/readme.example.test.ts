// The client README's example, run as a user runs it (a TypeScript module through tsx) against a real server on
// 127.0.0.1: it prints what its comments say, exits on its own (its receiver closed), and leaves no tenant behind.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ownChild } from '@hookline/core/testing';
import { ADMIN_TOKEN, startTestServer, within } from '../../server/test/server-harness.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'hl-client-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the README example delivers to its own receiver, prints what it promises and deletes what it created', async (t) => {
  const block = /<!-- client-example[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has the client-example block');
  const code = block[1]!;
  const server = await startTestServer();
  t.after(() => server.close());
  const file = join(dir, 'example.mts');
  writeFileSync(file, code.replace("'@hookline/client'", `'${new URL('../src/index.ts', import.meta.url).href}'`));
  // Its exit is part of the check: a receiver left listening would keep it running until the deadline.
  const stdout = await within(
    'the example to run and exit',
    60_000,
    new Promise<string>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', file],
        {
          cwd: fileURLToPath(new URL('..', import.meta.url)),
          env: { ...process.env, HOOKLINE_URL: server.url, HOOKLINE_TOKEN: ADMIN_TOKEN },
          timeout: 60_000,
        },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${out}\n${err}`)) : resolve(out)),
      );
      ownChild(child, t.after.bind(t));
    }),
  );
  const promised = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]!.replace(/ \(.*\)$/, ''));
  assert.deepEqual(promised, ['whsec_', 'succeeded [ 200 ]', '404 tenant_not_found']);
  assert.deepEqual(
    stdout.trim().split('\n'),
    promised.map((line, i) => (i === 0 ? `signing secret ${line}` : line)),
  );
  const tenants = await server.api('GET', '/v1/tenants');
  assert.equal(tenants.status, 200);
  // The server is fresh: the example's tenant was the only one, and it is gone.
  assert.deepEqual(tenants.body.items, [], 'the example deleted its tenant');
});
