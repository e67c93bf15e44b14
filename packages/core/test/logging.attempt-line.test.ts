// The attempt line through the engine (docs/performance.md#logging-off-the-hot-path): written by hand when its fields
// are flat, it must still be one valid JSON line whatever the sender put in its event_id (quotes, backslashes and the
// rest of printable ASCII), carrying the event_id back unchanged. Control characters, line breaks and surrogates are
// flat-log-line.test.ts's (against pino's own text): the API admits none in an event_id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonLogger } from '../src/logger.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';

// What the API admits as an event_id: printable ASCII without space (event-routes.ts). Among them the two characters
// JSON escapes, alone, doubled and next to what reads like an escape already.
const EVENT_IDS = [
  'plain-1',
  'quo"te',
  'back\\slash',
  '\\"both\\"',
  'ends-with\\',
  'looks\\u0041escaped\\n',
  "!#$%&'()*+,-./:;<=>?@[]^_`{|}~",
];

test('every attempt line is one JSON line that gives the event_id back, whatever its characters', async () => {
  const lines: string[] = [];
  const t = await testEngine({
    logger: jsonLogger('info', (l) => void lines.push(l)),
    dispatcher: { logAttempts: true },
  });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url });
    const rs = await t.engine.events.acceptMany(
      t.tenantId,
      EVENT_IDS.map((id) => ({ event_id: id, type: 'a.b', data: {} })),
    );
    for (const r of rs) if (r instanceof Error) throw r;
    await settle(t.engine, t.clock);
    assert.equal(rx.received.length, EVENT_IDS.length);
    const attempts = [];
    for (const line of lines) {
      assert.ok(line.endsWith('\n') && line.indexOf('\n') === line.length - 1, `one line: ${JSON.stringify(line)}`);
      const parsed = JSON.parse(line); // throws on a line the escaping broke
      if (parsed.msg === 'attempt') attempts.push(parsed);
    }
    assert.deepEqual(attempts.map((a) => a.event_id).sort(), [...EVENT_IDS].sort());
    for (const a of attempts) {
      assert.deepEqual([a.level, a.outcome, a.status, a.attempt, a.tenant_id], ['info', 'success', 200, 1, t.tenantId]);
      assert.match(a.time, /^\d{4}-\d\d-\d\dT/);
    }
  } finally {
    await rx.close();
    await t.close();
  }
});
