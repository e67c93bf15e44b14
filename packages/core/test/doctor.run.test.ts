// The doctor's runner with the engine's real sender over loopback: a receiver that never answers, and the SSRF guard.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { createSender } from '../src/http/sender.ts';
import { startReceiver } from '../testing/receiver.ts';

const secrets = [{ kid: 'k1', secret: 'whsec_c2VjcmV0' }];

test('a receiver that never answers: the doctor ends within its budget, one timed-out request, the rest not run', async () => {
  const receiver = await startReceiver(() => 'hang');
  const sender = createSender({ allowHttp: true, allowPrivateTargets: true });
  try {
    // A 1.5 s budget stands in for the 60 s one: the per-request timeout (10 s) is cut to what is left.
    const report = await runDoctor(
      { url: receiver.url, scheme: 'hookline', secrets },
      { sender, maxDurationMs: 1_500 },
    );
    assert.equal(report.stoppedBy, 'max_duration');
    assert.equal(receiver.received.length, 1);
    assert.equal(report.requestsSent, 1);
    assert.equal(report.cases[0].grade, 'fail');
    assert.match(report.cases[0].explanation, /^timeout: no full response within \d+ ms$/);
    // Cases 6 and 9 cannot apply (no schema, no previous secret); every other one is reported as not run.
    assert.ok(
      report.cases
        .slice(1)
        .every((c) => c.grade === 'skip' && (c.applicable ? /budget ran out/ : /^no /).test(c.explanation)),
    );
    assert.equal(report.score.applicable, 10);
  } finally {
    await sender.close();
    await receiver.close();
  }
});

test('the SSRF guard: a loopback target is refused before any packet, by address and after DNS, and the run stops', async () => {
  const receiver = await startReceiver();
  const sender = createSender({
    allowHttp: true,
    allowPrivateTargets: false,
    lookup: (_name, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
  });
  try {
    const direct = await runDoctor({ url: receiver.url, scheme: 'hookline', secrets }, { sender });
    assert.equal(direct.stoppedBy, 'refused_address');
    assert.equal(direct.cases[0].grade, 'fail');
    assert.match(direct.cases[0].explanation, /refused_address/);
    assert.ok(
      direct.cases
        .slice(1)
        .filter((c) => c.applicable)
        .every((c) => c.grade === 'skip' && /SSRF/.test(c.explanation)),
    );
    const port = new URL(receiver.url).port;
    // A public-looking name that resolves to loopback (DNS rebinding) is refused at connect time.
    const rebound = await runDoctor(
      { url: `http://receiver.example:${port}/hook`, scheme: 'hookline', secrets },
      { sender },
    );
    assert.equal(rebound.stoppedBy, 'refused_address');
    assert.equal(rebound.requestsSent, 1);
    assert.equal(receiver.received.length, 0);
  } finally {
    await sender.close();
    await receiver.close();
  }
});
