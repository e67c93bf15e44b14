// `hookline events list|export` against a real server: a filtered table page, the NDJSON export to a file, and a
// resumed export that appends after the given id.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test('events list filters into a table with a cursor; events export writes NDJSON and resumes with --after', async (t) => {
  const srv = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'hookline-events-cli-'));
  t.after(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tenant = await srv.tenant();
  const events = Array.from({ length: 12 }, (_, i) => ({
    event_id: `ord_${String(i).padStart(2, '0')}`,
    type: i % 3 ? 'order.created' : 'order.paid',
    data: { status: i % 2 ? 'paid' : 'open' },
  }));
  assert.equal((await srv.api('POST', `/v1/tenants/${tenant}/events/batch`, { body: { events } })).body.accepted, 12);
  const cli = (...args: string[]) =>
    runMain([...args, '--tenant', tenant], { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN });

  const page = await cli(
    'events',
    'list',
    '--type',
    'order.created',
    '--filter',
    '{"path":"data.status","equals":"paid"}',
    '--limit',
    '2',
  );
  assert.equal(page.code, 0, page.stderr);
  assert.match(page.stdout, /ord_01 .*order\.created/);
  assert.match(page.stdout, /ord_05 /);
  const cursor = /more: --cursor (\S+)/.exec(page.stdout)?.[1];
  assert.ok(cursor, page.stdout);
  const next = json(
    await cli(
      'events',
      'list',
      '--type',
      'order.created',
      '--filter',
      '{"path":"data.status","equals":"paid"}',
      '--cursor',
      cursor,
      '--json',
    ),
  );
  assert.deepEqual(
    next.items.map((e: { event_id: string }) => e.event_id),
    ['ord_07', 'ord_11'],
  );
  assert.equal(next.next_cursor, null);
  const bad = await cli('events', 'list', '--filter', '{"path":"nope","equals":1}');
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /invalid_filter/);
  assert.match((await cli('events', 'list', '--filter', '{nope')).stderr, /--filter must be a payload filter as JSON/);

  const file = join(dir, 'orders.ndjson');
  const all = await cli('events', 'export', '--prefix', 'ord_', '--out', file);
  assert.equal(all.code, 0, all.stderr);
  const lines = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 12);
  assert.match(all.stderr, new RegExp(`exported 12 events; the last is ${lines[11].id}`));
  // Cut after the fifth line, then resumed: the file ends whole, each event once.
  const cut = `${readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n')}\n`;
  writeFileSync(file, cut);
  const resumed = await cli('events', 'export', '--prefix', 'ord_', '--out', file, '--after', lines[4].id);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(
    readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event_id),
    lines.map((l) => l.event_id),
  );
  const stdout = await cli('events', 'export', '--type', 'order.paid');
  assert.deepEqual(
    stdout.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).event_id),
    ['ord_00', 'ord_03', 'ord_06', 'ord_09'],
  );
  assert.match((await cli('events', 'export', '--cursor', 'x')).stderr, /resume with --after/);
});
