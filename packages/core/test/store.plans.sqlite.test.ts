// The plans SQLite picks for the event search's reads (docs/api.md#event-search). SQLite plans a statement before it
// sees its values and without statistics, so each read must name or force the index that bounds it: a page of one
// type, or a page's deliveries, must not walk every row of the tenant (the million-event export was 8 times slower).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { loadStatements } from '../src/store/sql-files.ts';

const storeDir = join(dirname(fileURLToPath(import.meta.url)), '../src/store');

test('the event search reads by the index that bounds each read', () => {
  const db = new Database(':memory:');
  db.exec(readFileSync(join(storeDir, 'sqlite', 'schema.sql'), 'utf8'));
  const statements = loadStatements(join(storeDir, 'sqlite', 'sql'));
  const values = {
    tenant_id: 't',
    type: 'x',
    to_id: 'evt_Z',
    after_id: 'evt_',
    from_event_id: 'e',
    after_event_id: '',
    limit: 500,
    cap: 100_001,
    event_pks: '["evt_1"]',
  };
  const plan = (name: string) => {
    const stmt = db.prepare(`EXPLAIN QUERY PLAN ${statements[name]}`);
    const wanted = Object.fromEntries(Object.entries(values).filter(([k]) => statements[name].includes(`:${k}`)));
    return (stmt.all(wanted) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
  };
  // One lower bound (the keyset): each batch starts where the last ended, not at the window's start.
  assert.match(plan('search-events'), /USING INDEX events_tenant_id \(tenant_id=\? AND id>\? AND id<\?\)/);
  assert.match(
    plan('search-events-of-type'),
    /USING INDEX events_tenant_type \(tenant_id=\? AND type=\? AND id>\? AND id<\?\)/,
  );
  assert.match(
    plan('search-events-by-event-id'),
    /USING INDEX sqlite_autoindex_events_\d \(tenant_id=\? AND event_id>\?\)/,
  );
  assert.match(plan('deliveries-of-events'), /SEARCH deliveries USING INDEX deliveries_event \(event_pk=\?\)/);
  assert.match(plan('count-events-of-type-up-to'), /COVERING INDEX events_tenant_type \(tenant_id=\? AND type=\?\)/);
  db.close();
});
