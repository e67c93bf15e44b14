// `hookline doctor` in-process against receivers on 127.0.0.1: grades, exit codes, --json, usage errors, SSRF refusal.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runMain } from './cli-harness.ts';
import {
  naiveReceiver,
  ORDER_SHIPPED_DATA_SCHEMA,
  ORDER_SHIPPED_EXAMPLE,
  type TestReceiver,
  toolkitReceiver,
} from './fixtures/doctor-receivers.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD = 'whsec_C2FtcGxlIG9sZCBzZWNyZXQ=';
let dir: string;
let example: string;
let schema: string;
const receivers: TestReceiver[] = [];

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookline-doctor-'));
  example = join(dir, 'order.json');
  schema = join(dir, 'order.schema.json');
  writeFileSync(example, JSON.stringify({ type: 'order.shipped', data: ORDER_SHIPPED_EXAMPLE }));
  writeFileSync(schema, JSON.stringify(ORDER_SHIPPED_DATA_SCHEMA));
});
after(async () => {
  for (const r of receivers) await r.close();
  rmSync(dir, { recursive: true, force: true });
});

const dev = ['--allow-http', '--allow-private-targets'];

test('a @hookline/receiver receiver passes every case, both schemes: exit 0, table and score', async () => {
  for (const scheme of ['hookline', 'standard']) {
    const receiver = await toolkitReceiver([
      { kid: 'doctor', secret: SECRET },
      { kid: 'doctor-previous', secret: OLD },
    ]);
    receivers.push(receiver);
    const run = await runMain([
      'doctor',
      receiver.url,
      '--secret',
      SECRET,
      '--previous-secret',
      OLD,
      '--scheme',
      scheme,
      '--example',
      example,
      '--schema',
      schema,
      ...dev,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /score 12\/12 passed · 0 warnings · 0 failed/);
    assert.doesNotMatch(run.stdout, /FAIL|WARN|fixes:/);
    assert.match(run.stdout, /type order\.shipped/);
    assert.match(run.stdout, /X-Webhook-Doctor: 1 and a doctor_ event id: .* never runs them as work/);
    assert.equal(receiver.received.length, 15);
    assert.deepEqual(receiver.handled, [], 'the toolkit ran a doctor check as work');
  }
});

test('the naive receiver: exit 1, failing cases marked FAIL with their fixes; --json gives the API shape', async () => {
  const receiver = await naiveReceiver();
  receivers.push(receiver);
  const run = await runMain([
    'doctor',
    receiver.url,
    '--secret',
    SECRET,
    '--type',
    'order.shipped',
    '--example',
    example,
    '--schema',
    schema,
    ...dev,
  ]);
  assert.equal(run.code, 1);
  assert.match(
    run.stdout,
    /3a\s+a bad signature is refused with 401\/403\s+FAIL\s+HTTP 200: accepted a request with a bad signature/,
  );
  assert.match(run.stdout, / 5\s+corrupted JSON .*FAIL\s+HTTP 500/);
  assert.match(run.stdout, / 9\s+.*skip\s+no previous secret/);
  assert.match(run.stdout, /score 5\/11 passed · 1 warning · 5 failed · 1 skipped/);
  assert.match(run.stdout, /fixes:\n\s+3a {2}FAIL {2}Verify the HMAC/);
  const json = await runMain(['doctor', receiver.url, '--secret', SECRET, '--json', ...dev]);
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal(report.event_type, 'doctor.check');
  assert.equal(report.cases.length, 12);
  assert.equal(report.score.failed, 5);
  assert.equal(report.limits.max_requests, 30);
});

test('usage errors and refusals: one line, non-zero exit, nothing sent', async () => {
  const receiver = await naiveReceiver();
  receivers.push(receiver);
  const cases: Array<[string[], number, RegExp]> = [
    [['doctor', receiver.url, ...dev], 2, /--secret is required/],
    [['doctor', '--secret', 'x'], 2, /missing <url>/],
    [['doctor', receiver.url, '--secret', 'x', '--scheme', 'svix', ...dev], 2, /--scheme must be hookline or standard/],
    [
      ['doctor', receiver.url, '--secret', 'not base64!', '--scheme', 'standard', ...dev],
      2,
      /--secret: signing secret is not valid base64/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'whsk_QUJD', ...dev],
      2,
      /--secret: an ed25519 secret key \(whsk_\) needs --scheme standard/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'whsk_QUJD', '--scheme', 'standard', ...dev],
      2,
      /--secret: ed25519 secret key must be 32 or 64 bytes, got 3/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'x', '--timeout', '2m', ...dev],
      2,
      /--timeout must be a duration from 1ms to 60s/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'x', '--example', join(dir, 'missing.json'), ...dev],
      2,
      /cannot read example file/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'x', '--allow-http'],
      4,
      /non-public address \(--allow-private-targets for development\); nothing was sent/,
    ],
    [
      ['doctor', receiver.url, '--secret', 'x', '--allow-private-targets'],
      4,
      /url must be https \(--allow-http for development\)/,
    ],
    [['doctor', 'not a url', '--secret', 'x'], 2, /not a valid absolute URL/],
  ];
  for (const [args, code, message] of cases) {
    const run = await runMain(args);
    assert.equal(run.code, code, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  }
  assert.equal(receiver.received.length, 0);
});
