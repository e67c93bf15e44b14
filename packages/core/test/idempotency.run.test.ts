// Idempotent requests (docs/svix-compatibility.md#idempotency) over a real store: one run per key and request, a
// concurrent duplicate waits for the first answer, the answer outlives the engine (a restart on the same file), the
// same key with another request is 409, and a failed first run releases the key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isHooklineError } from '../src/errors.ts';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { testEngine, within } from '../testing/index.ts';

test('a concurrent duplicate waits for the first run and gets its answer; the function runs once', async () => {
  const t = await testEngine();
  try {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fn = async () => {
      runs++;
      await gate;
      return { status: 201, body: '{"id":"msg_1"}' };
    };
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = t.engine.idempotency.run('svix:admin', 'k1', 'h', async () => {
      started();
      return fn();
    });
    // The second starts while the first holds the key (its function is running).
    await within('the first run', 10_000, running);
    let secondDone = false;
    const second = t.engine.idempotency.run('svix:admin', 'k1', 'h', fn).then((a) => {
      secondDone = true;
      return a;
    });
    // Give the duplicate time to reach the store; it cannot finish before the first answers, whatever the timing.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(secondDone, false, 'the duplicate must wait for the first answer');
    release();
    const [a, b] = await within('both answers', 10_000, Promise.all([first, second]));
    assert.deepEqual([a.status, a.body, a.repeated], [201, '{"id":"msg_1"}', false]);
    assert.deepEqual([b.status, b.body, b.repeated], [201, '{"id":"msg_1"}', true]);
    assert.equal(runs, 1);
    await assert.rejects(
      t.engine.idempotency.run('svix:admin', 'k1', 'other', fn),
      (e) => isHooklineError(e) && e.code === 'idempotency_key_reused',
    );
    // Another caller's scope is another key.
    const c = await t.engine.idempotency.run('svix:tenant:x', 'k1', 'h', async () => ({ status: 200, body: '{}' }));
    assert.equal(c.repeated, false);
  } finally {
    await t.close();
  }
});

test('a failed first run (thrown or 5xx) releases the key; an answer survives a restart on the same store file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-idem-'));
  const path = join(dir, 'h.db');
  try {
    const a = await testEngine({ store: await openSqliteStore(path) });
    await assert.rejects(
      a.engine.idempotency.run('s', 'k', 'h', async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    const five = await a.engine.idempotency.run('s', 'k', 'h', async () => ({ status: 503, body: '{}' }));
    assert.equal(five.repeated, false);
    const ok = await a.engine.idempotency.run('s', 'k', 'h', async () => ({ status: 202, body: '"first"' }));
    assert.equal(ok.repeated, false);
    await a.engine.stop();
    await a.store.close();

    // A new engine on the same file: what a restarted server sees.
    const store = await openSqliteStore(path);
    const b = createHookline({ store, masterKey: generateMasterKey(), clock: a.clock });
    try {
      const again = await b.idempotency.run('s', 'k', 'h', async () => ({ status: 202, body: '"second"' }));
      assert.deepEqual([again.body, again.repeated], ['"first"', true]);
    } finally {
      await b.stop();
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
