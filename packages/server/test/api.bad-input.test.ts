// Property-based bad input over every route of the OpenAPI document: always a catalog 4xx (or a 2xx), never a 5xx or a hang.
// Seeded (HOOKLINE_FUZZ_SEED, HOOKLINE_FUZZ_RUNS override); fast-check prints the seed and path of a failing run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type DeliverySender, ERROR_CATALOG, memoryLogger } from '@hookline/core';
import fc from 'fast-check';
import { resolveConfig } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import {
  hostile,
  hugeString,
  loneSurrogate,
  objectFor,
  type Schema,
  unicodeEdge,
  valueFor,
} from './fixtures/bad-input-values.ts';
import { ADMIN_TOKEN } from './server-harness.ts';

const SEED = Number(process.env.HOOKLINE_FUZZ_SEED ?? 20_260_105);
const RUNS = Number(process.env.HOOKLINE_FUZZ_RUNS ?? 12);
const REQUEST_DEADLINE_MS = 15_000;

interface Operation {
  method: string;
  path: string;
  operationId: string;
  params: Array<{ name: string; in: 'path' | 'query'; schema: Schema }>;
  body: Schema | null;
}

// Generated endpoint URLs may be valid; nothing may leave the machine, so attempts go to a sender that answers itself.
const sender: DeliverySender = {
  async send() {
    return {
      outcome: 'success',
      status: 200,
      responseHeaders: {},
      bodyExcerpt: 'ok',
      errorClass: null,
      errorMessage: null,
      startedAt: Date.now(),
      durationMs: 1,
    };
  },
};

let server: RunningServer;
let dir: string;
const logger = memoryLogger();
const ids: Record<string, string> = {};
let tenantKey = '';
const operations: Operation[] = [];

async function call(
  method: string,
  path: string,
  init: { body?: string | Uint8Array; headers?: Record<string, string> } = {},
) {
  const res = await fetch(server.url + path, {
    method,
    headers: init.headers,
    body: init.body as BodyInit | undefined,
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

async function json(method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(method, path, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return JSON.parse(r.text);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hookline-bad-input-'));
  const config = resolveConfig({
    env: {},
    argv: {
      port: 0,
      host: '127.0.0.1',
      db: join(dir, 'hookline.db'),
      dataDir: join(dir, 'data'),
      allowHttp: true,
      allowPrivateTargets: true,
      adminToken: ADMIN_TOKEN,
      bodyLimitBytes: 256 * 1024,
    },
  });
  server = await startServer(config, { logger, sender });
  ids.tenant = (await json('POST', '/v1/tenants', { name: 'Fuzz', owner_emails: ['ops@fuzz.test'] })).id;
  ids.endpoint = (await json('POST', `/v1/tenants/${ids.tenant}/endpoints`, { url: 'http://127.0.0.1:9/hook' })).id;
  const key = await json('POST', `/v1/tenants/${ids.tenant}/api-keys`, { name: 'fuzz' });
  ids.key = key.id;
  tenantKey = key.key;
  const accepted = await json('POST', `/v1/tenants/${ids.tenant}/events`, {
    type: 'fuzz.seeded',
    event_id: 'evt-fuzz-1',
    data: { n: 1 },
  });
  ids.event_id = accepted.event.id ?? 'evt-fuzz-1';
  ids.delivery = accepted.deliveries[0].id;
  ids.type = 'fuzz.seeded';
  await json('PUT', '/v1/event-types/fuzz.seeded', { versions: { '1': { schema: { type: 'object' } } } });
  const doc = await json('GET', '/openapi.json');
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        params: (op.parameters ?? []) as Operation['params'],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return `%ED%A0%80${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}`; // a lone surrogate as (invalid) UTF-8 bytes
  }
}

function pathValue(name: string, method: string): fc.Arbitrary<string> {
  const real = ids[name];
  const junk = fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    unicodeEdge,
    loneSurrogate,
    hugeString,
    fc.constantFrom('ten_00000000000000000000000000', 'ep_x', '..', '%', '%2F'),
  );
  // Deletes get no real id: the other runs need the tenant, its endpoint and its key.
  return real && method !== 'DELETE'
    ? fc.oneof({ weight: 2, arbitrary: fc.constant(real) }, { weight: 3, arbitrary: junk })
    : junk;
}

interface Request {
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

function requestFor(op: Operation): fc.Arbitrary<Request> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const path = fc.tuple(...pathParams.map((p) => pathValue(p.name, op.method))).map((values) => {
    let url = op.path;
    pathParams.forEach((p, i) => {
      const v = values[i] as string;
      url = url.replace(`{${p.name}}`, v === ids[p.name] ? v : encodeSegment(v));
    });
    return url;
  });
  const query = fc
    .tuple(
      fc.record(Object.fromEntries(queryParams.map((p) => [p.name, valueFor(p.schema, p.name, 0)])), {
        requiredKeys: [],
      }),
      fc.option(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 2 }),
        { freq: 4 },
      ),
      fc.boolean(),
    )
    .map(([known, unknown, duplicate]) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...unknown, ...known })) {
        const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
        q.append(k, s);
        if (duplicate) q.append(k, s);
      }
      const text = q.toString();
      return text ? `?${text}` : '';
    });
  const body: fc.Arbitrary<unknown> = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: objectFor(op.body, 0) },
        { weight: 1, arbitrary: hostile },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostile });
  const encoding = fc.constantFrom(
    'json',
    'json',
    'json',
    'json',
    'truncated',
    'garbage',
    'deep',
    'huge',
    'utf16',
    'latin1',
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    '',
  );
  const auth = fc.constantFrom('admin', 'admin', 'admin', 'tenant', 'none', 'garbage');
  const requestId = fc.option(
    fc.oneof(
      fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
      fc.constant('ok-id_1'),
    ),
    { freq: 3 },
  );
  return fc.record({ path, query, body, encoding, contentType, auth, requestId }).map((r) => {
    const headers: Record<string, string> = {};
    if (r.auth === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
    if (r.auth === 'tenant') headers.authorization = `Bearer ${tenantKey}`;
    if (r.auth === 'garbage') headers.authorization = 'Bearer hk_live_\u00ff';
    if (r.requestId !== null) headers['x-request-id'] = r.requestId;
    let raw: string | Uint8Array | undefined;
    // fetch sends no body with GET (a GET with a body is not something a client library produces).
    if (op.method !== 'GET' && (r.body !== undefined || r.encoding === 'deep' || r.encoding === 'huge')) {
      const text = JSON.stringify(r.body) ?? 'null';
      switch (r.encoding) {
        case 'truncated':
          raw = text.slice(0, Math.max(0, text.length - 1));
          break;
        case 'garbage':
          raw = `${text}}{,`;
          break;
        case 'deep':
          raw = '['.repeat(50_000) + ']'.repeat(50_000);
          break;
        case 'huge':
          raw = JSON.stringify({ name: 'x'.repeat(300 * 1024) });
          break;
        case 'utf16':
          raw = new Uint8Array(Buffer.from(text, 'utf16le'));
          break;
        case 'latin1':
          raw = new Uint8Array(Buffer.from(`${text}"\u00e9"`, 'latin1'));
          break;
        default:
          raw = text;
      }
      if (r.contentType) headers['content-type'] = r.contentType;
    }
    return { path: r.path + r.query, headers, body: raw };
  });
}

function checkResponse(op: Operation, req: Request, res: { status: number; headers: Headers; text: string }): void {
  const where = `${op.method} ${req.path.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
  assert.ok(res.status < 500, `5xx: ${where}`);
  assert.ok(res.headers.get('x-request-id'), `no x-request-id: ${where}`);
  if (res.status < 400) return;
  assert.match(res.headers.get('content-type') ?? '', /application\/json/, where);
  const e = JSON.parse(res.text).error;
  assert.ok(e && Object.hasOwn(ERROR_CATALOG, e.code), `not a catalog code: ${where}`);
  assert.equal(ERROR_CATALOG[e.code as keyof typeof ERROR_CATALOG].status, res.status, where);
  assert.equal(typeof e.message, 'string', where);
  assert.ok(typeof e.request_id === 'string' && e.request_id.length > 0, where);
  assert.ok(!/\{\w+\}/.test(e.message), `unfilled placeholder: ${where}`);
  if (e.details !== undefined) {
    assert.ok(Array.isArray(e.details) && e.details.length > 0, where);
    for (const d of e.details) {
      assert.ok(['body', 'query', 'path'].includes(d.in), where);
      assert.ok(d.path === '' || d.path.startsWith('/'), where);
      assert.equal(typeof d.message, 'string', where);
    }
  }
}

test('every route of the OpenAPI document answers bad input with a catalog 4xx, never a 5xx or a hang', async (t) => {
  assert.ok(operations.length >= 30, `only ${operations.length} operations in the document`);
  for (const op of operations) {
    await t.test(`${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (req) => {
          const res = await call(op.method, req.path, {
            headers: req.headers,
            ...(req.body === undefined ? {} : { body: req.body }),
          });
          checkResponse(op, req, res);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
      );
    });
  }
  // Still serving, and nothing was an internal error.
  assert.equal((await call('GET', '/healthz')).status, 200);
  const created = await call('POST', '/v1/tenants', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'after the fuzz' }),
  });
  assert.equal(created.status, 201);
  const internal = logger.lines.filter((l) => l.level === 'error');
  assert.deepEqual(internal, []);
});
