// The README's five-minute tour, run as a reader runs it: the whole block pasted into bash against a running server,
// only its addresses and token changed. A tour that sends before its receiver listens, or whose curl lines stop
// matching the API, fails here instead of in a new user's terminal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from './fixtures/free-port.ts';
import { ADMIN_TOKEN, startTestServer, within } from './server-harness.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

test('the README tour, pasted whole: delivered and verified, the dead letter with its response, replayed', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tour = /<!-- tour[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(tour, 'README.md has the tour block');
  const t = await startTestServer();
  const rxPort = await freePort();
  try {
    const script = `${tour
      .replaceAll('http://127.0.0.1:8080', t.url)
      .replaceAll('hl_admin_…', ADMIN_TOKEN)
      .replaceAll('127.0.0.1:9000', `127.0.0.1:${rxPort}`)
      .replaceAll('listen(9000)', `listen(${rxPort})`)}\nkill $! 2>/dev/null\n`;
    // `REPO=$PWD`: the reader pastes it in the repository.
    const child = spawn('bash', ['-c', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const code = await within(
      'the tour to finish',
      60_000,
      new Promise<number | null>((r) => child.on('exit', (c) => r(c))),
    );
    const lines = out.split('\n');
    const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const context = `stdout:\n${out}\nstderr:\n${err}`;
    assert.equal(code, 0, context);
    assert.equal(err.trim(), '', context);
    // 4. the event reached the receiver at once, its signature verified with the README's verify.mjs
    assert.ok(
      lines.some((l) => l.startsWith('/hook signature ok')),
      context,
    );
    const [first, deadLetter, replay, replayed] = json;
    assert.equal(first.status, 'succeeded', context);
    assert.equal(first.attempts.length, 1);
    // 5. the refused path: one attempt, straight to the dead letter, with what the receiver answered
    assert.ok(
      lines.some((l) => l.startsWith('/broken signature ok')),
      context,
    );
    assert.deepEqual(
      deadLetter.items.map((d: { status: string; last_response: { status: number } }) => [
        d.status,
        d.last_response.status,
      ]),
      [['failed', 400]],
    );
    // 6. replayed: the same delivery, the 400 and then the replay's 200
    assert.deepEqual([replay.replay.kind, replay.replay.selected], ['single', 1], context);
    assert.equal(replayed.status, 'succeeded', context);
    assert.deepEqual(
      replayed.attempts.map((a: { response_status: number }) => a.response_status),
      [400, 200],
    );
  } finally {
    await t.close();
  }
});
