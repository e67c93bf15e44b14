// Certificate checks through the engine: a receiver's certificate must be trusted (docs/rules.md#endpoint-url), and a
// client certificate is checked when it is given (docs/rules.md#client-certificate) — PEM, its key, its size, not
// expired by the engine's clock — and a refused one leaves the whole edit undone.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createSender } from '../src/http/sender.ts';
import { testEngine } from '../testing/harness.ts';
import { haveOpenssl, selfSignedCertificate, testCa } from '../testing/test-certificates.ts';
import { DAY } from '../testing/time.ts';

const ci = process.env.CI === 'true';
const needsOpenssl = { skip: !haveOpenssl && !ci && 'openssl not installed' };

test(
  'a receiver whose certificate is not trusted gets nothing: the attempt is a tls failure; trusted, it succeeds',
  needsOpenssl,
  async (t) => {
    const { key, cert } = selfSignedCertificate(['127.0.0.1']);
    let received = 0;
    const rx = createHttpsServer({ key, cert }, (req, res) => {
      req.resume();
      received++;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => rx.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => rx.close(() => resolve())));
    const url = `https://127.0.0.1:${(rx.address() as AddressInfo).port}/in`;
    const deliver = async (e: Awaited<ReturnType<typeof testEngine>>) => {
      await e.engine.endpoints.create(e.tenantId, { url });
      const r = await e.engine.events.accept(e.tenantId, { type: 'a.b', data: {} });
      await e.engine.runDue();
      return e.engine.deliveries.detail(e.tenantId, r.deliveries[0].id);
    };
    const untrusting = await testEngine();
    t.after(() => untrusting.close());
    const refused = await deliver(untrusting);
    assert.deepEqual([refused.attempts[0]!.errorClass, refused.delivery.status], ['tls', 'pending']);
    assert.equal(received, 0, 'nothing was sent to it');
    const trusting = await testEngine({
      sender: createSender({ allowHttp: true, allowPrivateTargets: true, ca: cert }),
    });
    t.after(() => trusting.close());
    const ok = await deliver(trusting);
    assert.deepEqual([ok.attempts[0]!.outcome, ok.delivery.status], ['success', 'succeeded']);
    assert.equal(received, 1);
  },
);

test(
  'a client certificate is checked when given: PEM, its own key, at most 64 KB, not expired; a refusal changes nothing',
  needsOpenssl,
  async (t) => {
    const ca = testCa();
    t.after(() => ca.remove());
    const a = ca.issue('client-a', { usage: 'client', days: 30 });
    const b = ca.issue('client-b', { usage: 'client', days: 30 });
    const e = await testEngine();
    t.after(() => e.close());
    const url = 'https://hooks.example.com/in';
    const refusal = async (certificate: string, key: string) => {
      const err = await e.engine.endpoints.create(e.tenantId, { url, client_certificate: { certificate, key } }).then(
        () => null,
        (x: { code?: string; message: string }) => x,
      );
      assert.equal(err?.code, 'client_certificate_invalid', `refused: ${err?.message}`);
      return err!.message;
    };
    const [certA, keyA, keyB] = [a.cert.toString(), a.key.toString(), b.key.toString()];
    assert.match(await refusal('nope', keyA), /not a PEM X\.509 certificate/);
    assert.match(await refusal(certA, 'nope'), /not an unencrypted PEM private key/);
    assert.match(await refusal(certA, keyB), /key does not belong to the certificate/);
    assert.match(await refusal(`${certA}\n${' '.repeat(64 * 1024)}`, keyA), /64 KB/);
    assert.equal((await e.engine.endpoints.list(e.tenantId, null, 10)).items.length, 0, 'nothing was created');

    // Accepted while valid; an edit with a mismatched pair leaves the whole edit undone.
    const { endpoint } = await e.engine.endpoints.create(e.tenantId, {
      url,
      client_certificate: { certificate: certA, key: keyA },
    });
    assert.match(endpoint.egress?.certificate?.subject ?? '', /CN=client-a/);
    await assert.rejects(
      e.engine.endpoints.update(e.tenantId, endpoint.id, {
        description: 'changed',
        client_certificate: { certificate: certA, key: keyB },
      }),
      /key does not belong/,
    );
    const kept = await e.engine.endpoints.get(e.tenantId, endpoint.id);
    assert.deepEqual(
      [kept.description, kept.egress?.certificate?.subject],
      ['', endpoint.egress?.certificate?.subject],
    );

    // By the engine's clock, past the certificate's end: refused as expired.
    e.clock.advance(Date.parse(new X509Certificate(a.cert).validTo) - e.clock.now() + DAY);
    assert.match(await refusal(certA, keyA), /certificate expired/);
  },
);
