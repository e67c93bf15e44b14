// Verify throughput of ours against standardwebhooks and svix on one 1 KB payload, and of Ed25519 v1a (ours against
// node:crypto's verify alone); prints one JSON line.
import { generateKeyPairSync, verify } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { signWebhook } from '../src/sign.ts';
import { createVerifier } from '../src/verify.ts';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const envelope = (note: string) => JSON.stringify({ event_id: 'evt_bench', type: 'order.shipped', data: { note } });
const body = Buffer.from(envelope('x'.repeat(1024 - envelope('').length))); // valid JSON, exactly 1024 bytes
const timestamp = Math.floor(Date.now() / 1000);
const headers = signWebhook({ scheme: 'standard', secrets: secret, id: 'msg_bench', timestamp, body });

// Every contender verifies the same bytes and headers; each must accept them before timing.
const ours = createVerifier({ secrets: secret, scheme: 'standard' });
const standard = new StandardWebhook(secret);
const svix = new SvixWebhook(secret);
// v1a: a key pair from node:crypto; the receiver holds only its whpk_ public key.
const pair = generateKeyPairSync('ed25519');
const jwk = pair.privateKey.export({ format: 'jwk' });
const whsk = `whsk_${Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64')}`;
const edHeaders = signWebhook({ scheme: 'standard', secrets: whsk, id: 'msg_bench', timestamp, body });
const oursV1a = createVerifier({
  secrets: `whpk_${Buffer.from(jwk.x!, 'base64url').toString('base64')}`,
  scheme: 'standard',
});
const edSignature = Buffer.from(edHeaders['webhook-signature']!.slice(4), 'base64');
const contenders: Record<string, () => unknown> = {
  ours: () => ours.verify(headers, body),
  ours_v1a: () => oursV1a.verify(edHeaders, body),
  // The floor for v1a: node:crypto's Ed25519 verify of the same content, nothing else.
  crypto_verify_v1a: () => {
    if (!verify(null, Buffer.concat([Buffer.from(`msg_bench.${timestamp}.`), body]), pair.publicKey, edSignature))
      throw new Error('v1a');
  },
  standardwebhooks: () => standard.verify(body, headers, { jsonParse: false }),
  // svix always JSON.parses after verifying (no opt-out); standardwebhooks and ours do not parse here.
  svix: () => svix.verify(body, headers),
};
for (const run of Object.values(contenders)) run();

const ROUNDS = 5;
const ROUND_MS = 400;

function opsPerSecond(run: () => unknown, ms: number): number {
  let ops = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 200; i++) run();
    ops += 200;
    now = process.hrtime.bigint();
  }
  return ops / (Number(now - start) / 1e9);
}

for (const run of Object.values(contenders)) opsPerSecond(run, 300); // warm-up: JIT and caches
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
// Interleaved rounds so drift (thermal, GC, neighbours) hits every contender alike; median per contender.
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(contenders)) samples[name]!.push(opsPerSecond(run, ROUND_MS));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const result = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, Math.round(median(values))]),
) as Record<string, number>;
const ratioStandard = result.ours! / result.standardwebhooks!;
const ratioSvix = result.ours! / result.svix!;
console.log(
  JSON.stringify({
    bench: 'verify',
    payload_bytes: body.length,
    rounds: ROUNDS,
    round_ms: ROUND_MS,
    node: process.version,
    ops_per_sec: result,
    ratio_to_standardwebhooks: Number(ratioStandard.toFixed(2)),
    ratio_to_svix: Number(ratioSvix.toFixed(2)),
    v1a_ratio_to_crypto_verify: Number((result.ours_v1a! / result.crypto_verify_v1a!).toFixed(2)),
    target: 'ratio_to_standardwebhooks >= 4',
    met: ratioStandard >= 4,
  }),
);
