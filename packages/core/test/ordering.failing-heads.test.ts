// Ordered delivery with failing heads on SQLite (docs/rules.md#ordered-claim): one owner process, its dispatcher
// running for real (lanes up to each endpoint's cap of 8, sends overlapping) on a store thread as the server runs it.
// A head that retries holds its key, a head that fails on a `block` endpoint holds it until an operator dismisses it.
// The scenario is fixtures/failing-heads.ts; ordering.failing-heads.postgres.test.ts runs it on several workers.
import { test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { tempStore } from '../testing/harness.ts';
import { HEADS_POLICIES, runFailingHeads } from './fixtures/failing-heads.ts';

test('SQLite, one dispatcher with 8 lanes per endpoint: per key in order, nothing after a failing head until it resolves, a dismissed or replayed head lets its key go on', {
  timeout: 120_000,
}, async (t) => {
  const temp = await tempStore({ thread: true });
  const engine = createHookline({
    store: temp.store,
    masterKey: generateMasterKey(),
    policies: PolicyRegistry.fromConfig(HEADS_POLICIES),
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { pollMs: 100, logAttempts: false },
    maintenance: { enabled: false },
  });
  t.after(async () => {
    await engine.stop();
    await temp.cleanup();
  });
  await runFailingHeads(engine, temp.store, async () => engine.start());
});
