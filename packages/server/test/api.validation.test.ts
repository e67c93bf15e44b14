// Bad input over real HTTP, one case each: no body coercion, every error with its JSON Pointer, bounded JSON, parser-level refusals.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let ten: string;

before(async () => {
  t = await startTestServer({ config: { bodyLimitBytes: 64 * 1024 } });
  ten = await t.tenant();
});
after(async () => {
  await t.close();
});

/** One raw HTTP/1.1 exchange over loopback (for what fetch refuses to send); resolves with what the server wrote. */
function rawRequest(head: string, timeoutMs = 10_000): Promise<string> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in ${timeoutMs} ms: ${Buffer.concat(chunks).toString('latin1')}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {}); // the server closes after answering; a reset then is expected
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(head, 'latin1');
  });
}

function errorOfRaw(response: string): {
  status: number;
  body: { error: { code: string; message: string; request_id: string } };
} {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
  const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
  return { status, body };
}

test('{"name":123} is refused naming /name, not stored as the tenant "123"', async () => {
  const before = await t.api('GET', '/v1/tenants?limit=200');
  const r = await t.api('POST', '/v1/tenants', { body: { name: 123 } });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, 'invalid_request');
  assert.deepEqual(r.body.error.details, [{ in: 'body', path: '/name', message: 'must be string' }]);
  assert.equal(r.body.error.message, 'request is invalid: /name must be string');
  assert.ok(r.body.error.request_id);
  const afterwards = await t.api('GET', '/v1/tenants?limit=200');
  assert.equal(afterwards.body.items.length, before.body.items.length);
  // The same for booleans and numbers that look like strings elsewhere.
  const patch = await t.api('PATCH', `/v1/tenants/${ten}`, { body: { notify_email: 'false' } });
  assert.equal(patch.status, 400);
  assert.deepEqual(patch.body.error.details, [{ in: 'body', path: '/notify_email', message: 'must be boolean' }]);
  const rotate = await t.api('POST', `/v1/tenants/${ten}/endpoints/ep_x/secret/rotate`, {
    body: { overlap_seconds: '60' },
  });
  assert.equal(rotate.status, 400);
  assert.equal(rotate.body.error.details[0].path, '/overlap_seconds');
});

test('two bad fields are both reported; a missing and an unknown field each at its own path', async () => {
  const two = await t.api('POST', '/v1/tenants', { body: { name: 5, notify_email: 'yes' } });
  assert.equal(two.status, 400);
  assert.deepEqual(two.body.error.details, [
    { in: 'body', path: '/name', message: 'must be string' },
    { in: 'body', path: '/notify_email', message: 'must be boolean' },
  ]);
  assert.match(two.body.error.message, /\/name must be string; \/notify_email must be boolean/);
  const shape = await t.api('POST', '/v1/tenants', {
    body: { colour: 'red', owner_emails: ['ok@acme.test', 'not-an-email'] },
  });
  assert.equal(shape.status, 400);
  const paths = shape.body.error.details.map((d: { path: string; message: string }) => `${d.path} ${d.message}`);
  assert.ok(paths.includes('/name is required'), paths.join(' | '));
  assert.ok(paths.includes('/colour is not a known field'), paths.join(' | '));
  assert.ok(
    paths.some((p: string) => p.startsWith('/owner_emails/1 ')),
    paths.join(' | '),
  );
  const endpoint = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: 'https://example.test/h', timeout_ms: '5000', scheme: 'other', event_types: [1] },
  });
  assert.equal(endpoint.status, 400);
  assert.deepEqual(endpoint.body.error.details.map((d: { path: string }) => d.path).sort(), [
    '/event_types/0',
    '/scheme',
    '/timeout_ms',
  ]);
  assert.match(
    endpoint.body.error.details.find((d: { path: string }) => d.path === '/scheme').message,
    /"hookline", "standard"/,
  );
  assert.equal(
    endpoint.body.error.details.find((d: { path: string }) => d.path === '/timeout_ms').message,
    'must be integer or null',
  );
});

test('query and path values still coerce where the schema says integer; their errors say in: query', async () => {
  const ok = await t.api('GET', `/v1/tenants/${ten}/endpoints?limit=2`);
  assert.equal(ok.status, 200);
  const bad = await t.api('GET', `/v1/tenants/${ten}/deliveries?limit=abc&status=nope`);
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.error.details.map((d: { in: string; path: string }) => `${d.in} ${d.path}`).sort(), [
    'query /limit',
    'query /status',
  ]);
  const unknown = await t.api('GET', `/v1/tenants/${ten}/notices?colour=red`);
  assert.deepEqual(unknown.body.error.details, [{ in: 'query', path: '/colour', message: 'is not a known field' }]);
});

test('a batch item is not coerced either: "version": 2 is refused at /events/0/version', async () => {
  const r = await t.api('POST', `/v1/tenants/${ten}/events/batch`, {
    body: {
      events: [
        { type: 'a.b', version: 2, data: {} },
        { type: 'a.b', data: {} },
      ],
    },
  });
  assert.equal(r.status, 202);
  assert.equal(r.body.results[0].ok, false);
  assert.deepEqual(r.body.results[0].error.details, [
    { in: 'body', path: '/events/0/version', message: 'must be string' },
  ]);
  assert.equal(r.body.results[1].ok, true);
});

test('invalid dates are refused, including days that do not exist', async () => {
  for (const since of ['2026-02-31', '2026-13-01', 'June', '5', '2026-02-29T10:00:00Z']) {
    const r = await t.api('GET', `/v1/tenants/${ten}/deliveries?since=${encodeURIComponent(since)}`);
    assert.equal(r.status, 400, since);
    assert.deepEqual(
      r.body.error.details,
      [{ in: 'query', path: '/since', message: 'must be an ISO-8601 time like 2026-01-05T12:00:00Z' }],
      since,
    );
  }
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/deliveries?since=2028-02-29`)).status, 200);
  const ev = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'a.b', data: {}, occurred_at: '2026-04-31T00:00:00Z' },
  });
  assert.equal(ev.status, 400);
  assert.equal(ev.body.error.details[0].path, '/occurred_at');
});

test('deeply nested JSON is 400 json_too_deep, quickly and without a crash; 64 levels are accepted', async () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const hostile = await t.api('POST', `/v1/tenants/${ten}/events`, {
    raw: `{"type":"a.b","data":${deep(30_000)}}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(hostile.status, 400);
  assert.equal(hostile.body.error.code, 'json_too_deep');
  const limit = await t.api('POST', `/v1/tenants/${ten}/events`, {
    raw: `{"type":"a.b","data":${deep(63)}}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(limit.status, 202, JSON.stringify(limit.body));
  const over = await t.api('POST', `/v1/tenants/${ten}/events`, {
    raw: `{"type":"a.b","data":${deep(64)}}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(over.body.error.code, 'json_too_deep');
  assert.equal((await t.api('GET', '/healthz')).status, 200);
});

test('lone surrogates are 400 json_invalid_unicode naming the path; bytes that are not UTF-8 are invalid_json', async () => {
  const lone = await t.api('POST', '/v1/tenants', {
    raw: '{"name":"ok","owner_emails":["a@b.test"],"x":{"k\\udc00":1}}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(lone.body.error.code, 'json_invalid_unicode');
  assert.match(lone.body.error.message, /at \/x\/k/);
  const name = await t.api('POST', '/v1/tenants', {
    raw: '{"name":"a\\ud800b"}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(name.status, 400);
  assert.equal(name.body.error.message, 'body holds a lone surrogate at /name; strings must be well-formed Unicode');
  const pair = await t.api('POST', '/v1/tenants', {
    raw: '{"name":"\\ud83d\\ude00 ok"}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(pair.status, 201);
  assert.equal(pair.body.name, '\u{1F600} ok');
  const latin1 = await t.api('POST', '/v1/tenants', {
    raw: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(latin1.status, 400);
  assert.equal(latin1.body.error.code, 'invalid_json');
});

test('huge bodies are 413, with or without a content-length; wrong content-type 415; malformed JSON 400', async () => {
  const big = await t.api('POST', '/v1/tenants', { body: { name: 'x'.repeat(70 * 1024) } });
  assert.equal(big.status, 413);
  assert.equal(big.body.error.code, 'body_too_large');
  assert.equal(big.body.error.message, 'body exceeds 65536 bytes');
  // Chunked: the limit holds on the bytes read, not on a declared length.
  const chunks = (async function* () {
    for (let i = 0; i < 40; i++) yield new TextEncoder().encode(`"${'y'.repeat(4096)}",`);
  })();
  const res = await fetch(`${t.url}/v1/tenants`, {
    method: 'POST',
    body: chunks,
    duplex: 'half',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-admin-token-0123456789' },
  } as unknown as RequestInit);
  assert.equal(res.status, 413);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'body_too_large');
  const text = await t.api('POST', '/v1/tenants', { raw: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
  assert.equal(text.body.error.code, 'unsupported_media_type');
  for (const raw of ['{"name":', '{name:"x"}', '{"name":"x"}}', '\ufeff{"name":"x"}', 'NaN']) {
    const bad = await t.api('POST', '/v1/tenants', { raw, headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400, raw);
    assert.equal(bad.body.error.code, 'invalid_json', raw);
  }
});

test('CR/LF in an endpoint URL is refused, never rewritten into the URL that later becomes a request', async () => {
  for (const url of [
    'http://127.0.0.1:9/h\r\nX-Injected: 1',
    'http://127.0.0.1:9/h\nHost: evil.test',
    ' http://127.0.0.1:9/h',
    'http://127.0.0.1:9/\th',
  ]) {
    const r = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url } });
    assert.equal(r.status, 400, JSON.stringify(url));
    assert.equal(r.body.error.code, 'url_invalid', JSON.stringify(url));
  }
});

test('parser-level refusals answer with a catalog code: CR in a header, an enormous URL, bad percent-encoding, an over-long id', async () => {
  const cr = errorOfRaw(await rawRequest('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Test: a\rb\r\n\r\n'));
  assert.equal(cr.status, 400);
  assert.equal(cr.body.error.code, 'invalid_request');
  assert.match(cr.body.error.request_id, /^req_/);
  const long = errorOfRaw(
    await rawRequest(`GET /v1/tenants/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
  );
  assert.equal(long.status, 431);
  assert.equal(long.body.error.code, 'headers_too_large');
  const pct = await t.api('GET', '/v1/tenants/%E0%A4%A');
  assert.equal(pct.status, 400);
  assert.equal(pct.body.error.code, 'invalid_request');
  assert.equal(pct.body.error.details[0].in, 'path');
  assert.ok(pct.headers.get('x-request-id'));
  const id = await t.api('GET', `/v1/tenants/${'a'.repeat(300)}`);
  assert.equal(id.status, 400);
  assert.equal(id.body.error.details[0].in, 'path');
  assert.equal((await t.api('GET', '/healthz')).status, 200);
});
