import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError } from '../cli-error.ts';
import { parseScenario, receiverPicker } from './scenario.ts';

const base = {
  policy: 'payments',
  events: [{ at: '0s', count: 2, type: 'payment.status_changed', data: { status: 'paid' } }],
};

test('parses events and receiver rules, durations in ms', () => {
  const s = parseScenario(
    {
      ...base,
      seed: 4,
      receiver: [
        { from: '0s', to: '2h', respond: '503' },
        { from: '2h', respond: ['200', 'timeout'] },
      ],
    },
    'f.json',
  );
  assert.equal(s.policy, 'payments');
  assert.equal(s.seed, 4);
  assert.deepEqual(s.events, [
    { atMs: 0, count: 2, everyMs: 0, type: 'payment.status_changed', data: { status: 'paid' } },
  ]);
  assert.deepEqual(
    s.receiver.map((r) => [r.fromMs, r.toMs, r.respond.length]),
    [
      [0, 7_200_000, 1],
      [7_200_000, null, 2],
    ],
  );
});

test('actions: in time order (file order at one time), include_skipped for replays, catch_up for reactivations', () => {
  const s = parseScenario(
    {
      ...base,
      actions: [
        { at: '1h', do: 'reactivate' },
        { at: '1h', do: 'replay', include_skipped: true },
        { at: '10m', do: 'pause' },
        { at: '2h', do: 'reactivate', catch_up: true },
      ],
    },
    'f.json',
  );
  assert.deepEqual(s.actions, [
    { atMs: 600_000, do: 'pause', includeSkipped: false, catchUp: false },
    { atMs: 3_600_000, do: 'reactivate', includeSkipped: false, catchUp: false },
    { atMs: 3_600_000, do: 'replay', includeSkipped: true, catchUp: false },
    { atMs: 7_200_000, do: 'reactivate', includeSkipped: false, catchUp: true },
  ]);
  assert.throws(
    () => parseScenario({ ...base, actions: [{ at: '1h', do: 'replay', catch_up: true }] }, 'f.json'),
    /actions\[0\]\.catch_up: goes with "do": "reactivate" only/,
  );
  assert.throws(
    () => parseScenario({ ...base, actions: [{ at: '1h', do: 'reactivate', catch_up: 'yes' }] }, 'f.json'),
    /actions\[0\]\.catch_up: must be true or false/,
  );
  assert.deepEqual(parseScenario(base, 'f.json').actions, []);
});

test('errors name the file and the path, and are usage errors (exit 2)', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ ...base, policy: 'nope' }, /f\.json: policy: unknown policy "nope"/],
    [{ ...base, events: [] }, /events: must be a non-empty array/],
    [{ ...base, events: [{ at: '5 minutes', type: 'a' }] }, /events\[0\]\.at: /],
    [{ ...base, events: [{ count: 0, type: 'a' }] }, /events\[0\]\.count: must be a whole number/],
    [{ ...base, receiver: [{ from: '1h', to: '30m', respond: '200' }] }, /receiver\[0\]\.to: must be later than from/],
    [
      { ...base, receiver: [{ respond: ['200', 'teapot'] }] },
      /receiver\[0\]\.respond\[1\]: 'teapot' is not a response/,
    ],
    [{ ...base, reciever: [] }, /reciever: unknown key/],
    [{ ...base, events: [{ count: 60_000, type: 'a' }] }, /at most 50000/],
    [{ ...base, actions: [{ at: '1m', do: 'delete' }] }, /actions\[0\]\.do: must be one of pause, reactivate, replay/],
    [
      { ...base, actions: [{ at: '1m', do: 'pause', include_skipped: true }] },
      /actions\[0\]\.include_skipped: goes with "do": "replay" only/,
    ],
    [{ ...base, actions: {} }, /actions: must be an array/],
  ];
  for (const [json, message] of cases) {
    assert.throws(
      () => parseScenario(json, 'f.json'),
      (err: unknown) => err instanceof CliError && err.exitCode === 2 && message.test(err.message),
    );
  }
});

test('the receiver answers by time: first matching rule, lists cycled per request it answers, 200 where no rule applies', () => {
  const s = parseScenario(
    {
      ...base,
      receiver: [
        { from: '0s', to: '10m', respond: ['500', 'reset'] },
        { from: '1h', to: '2h', respond: 'timeout' },
      ],
    },
    'f.json',
  );
  const pick = receiverPicker(s.receiver);
  const at = (ms: number) => {
    const r = pick(ms);
    return r.kind === 'status' ? r.status : r.kind;
  };
  assert.deepEqual(
    [at(0), at(1), at(599_999), at(600_000), at(3_600_000), at(7_200_000)],
    [500, 'reset', 500, 200, 'timeout', 200],
  );
});
