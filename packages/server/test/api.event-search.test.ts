// Event search and NDJSON export over real HTTP: filters, paging, deliveries' statuses, errors in the query, and the
// export streamed (Accept or format=) and resumed with after=.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_TOKEN, type ApiResponse, startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let ten: string;
let epOrders: string;

before(async () => {
  t = await startTestServer();
  ten = await t.tenant();
  // Endpoints are never reached here: paused, their deliveries are `skipped` at once.
  epOrders = (
    await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
      body: { url: 'http://127.0.0.1:9/orders', event_types: ['order.*'] },
    })
  ).body.id;
  await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${epOrders}`, { body: { status: 'paused' } });
  const events = Array.from({ length: 40 }, (_, i) => ({
    event_id: `${i % 2 ? 'ord' : 'inv'}_${String(i).padStart(3, '0')}`,
    type: i % 2 ? 'order.created' : 'invoice.paid',
    data: { n: i, status: i % 4 === 1 ? 'paid' : 'open', ...(i % 5 === 0 ? { total: i * 10 } : {}) },
  }));
  const r = await t.api('POST', `/v1/tenants/${ten}/events/batch`, { body: { events } });
  assert.equal(r.body.accepted, 40);
});
after(() => t.close());

const path = (q: string) => `/v1/tenants/${ten}/events?${q}`;
const ids = (items: Array<{ event_id: string }>) => items.map((e) => e.event_id);

/** Every page of a search, following next_cursor. */
async function allPages(q: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const r: ApiResponse = await t.api(
      'GET',
      path(`${q}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    out.push(...ids(r.body.items));
    cursor = r.body.next_cursor;
  } while (cursor !== null);
  return out;
}

async function ndjson(q: string, headers: Record<string, string> = {}) {
  const res = await fetch(t.url + path(q), { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text };
}

test('lists by type, prefix and payload filter, oldest first, with each delivery status', async () => {
  const orders = await t.api('GET', path('type=order.created&limit=3'));
  assert.equal(orders.status, 200);
  assert.deepEqual(ids(orders.body.items), ['ord_001', 'ord_003', 'ord_005']);
  const first = orders.body.items[0];
  assert.equal(first.type, 'order.created');
  assert.deepEqual(first.payload.data, { n: 1, status: 'paid' });
  assert.deepEqual(first.deliveries, [
    { id: first.deliveries[0].id, endpoint_id: epOrders, status: 'skipped', attempts: 0 },
  ]);
  assert.deepEqual(
    (await t.api('GET', path('type=invoice.paid&limit=1'))).body.items[0].deliveries,
    [],
    'no endpoint subscribes to invoices',
  );
  assert.equal((await allPages('type=order.created', 7)).length, 20);

  const filter = encodeURIComponent(JSON.stringify({ path: 'data.status', equals: 'paid' }));
  const paid = await allPages(`filter=${filter}`, 4);
  assert.deepEqual(paid, [
    'ord_001',
    'ord_005',
    'ord_009',
    'ord_013',
    'ord_017',
    'ord_021',
    'ord_025',
    'ord_029',
    'ord_033',
    'ord_037',
  ]);
  const totals = encodeURIComponent(
    JSON.stringify({
      all: [
        { path: 'data.total', gte: 100 },
        { path: 'type', in: ['invoice.paid'] },
      ],
    }),
  );
  assert.deepEqual(await allPages(`filter=${totals}`, 50), ['inv_010', 'inv_020', 'inv_030']);
  assert.deepEqual(await allPages(`event_id_prefix=ord_03&filter=${filter}`, 1), ['ord_033', 'ord_037']);
  assert.deepEqual(await allPages('event_id_prefix=inv_00', 2), [
    'inv_000',
    'inv_002',
    'inv_004',
    'inv_006',
    'inv_008',
  ]);

  const since = new Date(Date.now() + 60_000).toISOString();
  assert.deepEqual((await t.api('GET', path(`since=${since}`))).body, { items: [], next_cursor: null });
  const until = new Date(Date.now() + 60_000).toISOString();
  assert.equal((await allPages(`until=${until}&type=invoice.paid`, 50)).length, 20);
});

test('bad queries are 400s that name the query parameter', async () => {
  const bad = await t.api('GET', path(`filter=${encodeURIComponent('{"path":"payload.x","equals":1}')}`));
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_filter');
  assert.equal(bad.body.error.details[0].in, 'query');
  assert.equal(bad.body.error.details[0].path, '/filter/path');
  const notJson = await t.api('GET', path('filter=%7Bnope'));
  assert.equal(notJson.status, 400);
  assert.equal(notJson.body.error.details[0].path, '/filter');
  assert.equal((await t.api('GET', path('cursor=bm90LWEtY3Vyc29y'))).body.error.code, 'invalid_cursor');
  assert.equal((await t.api('GET', path('after=evt_01'))).status, 400, 'after= is for the export');
  assert.equal((await t.api('GET', path('since=yesterday'))).body.error.details[0].path, '/since');
});

test('NDJSON export streams the whole selection and resumes after the last id', async () => {
  const all = await ndjson('type=order.created', { accept: 'application/x-ndjson' });
  assert.equal(all.status, 200);
  assert.equal(all.type, 'application/x-ndjson');
  const lines = all.text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 20);
  assert.deepEqual(
    lines[0].deliveries.map((d: { status: string }) => d.status),
    ['skipped'],
  );
  assert.equal(lines[19].event_id, 'ord_039');
  const rest = await ndjson(`type=order.created&format=ndjson&after=${lines[14].id}`);
  assert.deepEqual(
    rest.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event_id),
    ['ord_031', 'ord_033', 'ord_035', 'ord_037', 'ord_039'],
  );
  const byPrefix = await ndjson(
    `event_id_prefix=inv_01&format=ndjson&after=${(await t.api('GET', `/v1/tenants/${ten}/events/inv_012`)).body.event.id}`,
  );
  assert.deepEqual(
    byPrefix.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event_id),
    ['inv_014', 'inv_016', 'inv_018'],
  );
  const empty = await ndjson('type=none&format=ndjson');
  assert.equal(empty.status, 200);
  assert.equal(empty.text, '');
  // A refusal found before the first line is an ordinary error answer.
  const refused = await ndjson(`format=ndjson&filter=${encodeURIComponent('{"all":[]}')}`);
  assert.equal(refused.status, 400);
  assert.equal(JSON.parse(refused.text).error.code, 'invalid_filter');
  assert.equal((await ndjson('format=ndjson&after=evt_nope')).status, 400);
  assert.equal((await ndjson('format=ndjson&cursor=x')).status, 400);
});
