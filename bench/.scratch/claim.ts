import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { acceptBacklog, engineFixture, TENANT } from '../lib/fixture.ts';
const f = await engineFixture();
await f.engine.createEndpoint(TENANT, { url: 'http://127.0.0.1:9/hook' });
await acceptBacklog(f.engine, 20000);
await f.store.close();
const db = new Database(f.path);
db.exec("UPDATE deliveries SET status='delivering', leased_by='w' WHERE id IN (SELECT id FROM deliveries ORDER BY id LIMIT 10)");
const strip = (s: string) => s.split('\n').filter((l) => !l.startsWith('--')).join('\n');
for (const [name, file] of [['old', 'packages/core/src/store/sqlite/sql/claim-due.sql'], ['new', 'bench/.scratch/claim-new.sql'], ['old', 'packages/core/src/store/sqlite/sql/claim-due.sql'], ['new', 'bench/.scratch/claim-new.sql']]) {
  const st = db.prepare(strip(readFileSync(file, 'utf8')));
  let n = 0; const t = performance.now();
  for (let i = 0; i < 200; i++) { db.exec('BEGIN'); n += st.all({ now: Date.now() + 1e9, lease_until: 1, worker: 'x', limit: 200, saturated: '[]' }).length; db.exec('ROLLBACK'); }
  console.log(name, ((performance.now() - t) / 200).toFixed(3), 'ms/claim', n / 200, 'rows');
}
const q = strip(readFileSync('bench/.scratch/claim-new.sql', 'utf8'));
console.log(db.prepare('EXPLAIN QUERY PLAN ' + q).all({ now: 1, lease_until: 1, worker: 'x', limit: 200, saturated: '[]' }).map((r: any) => r.detail).join('\n'));
const inner = `SELECT count(*) FROM (SELECT id, endpoint_id, next_attempt_at FROM deliveries WHERE status = 'pending' AND next_attempt_at <= :now AND endpoint_id NOT IN (SELECT value FROM json_each(:saturated)) ORDER BY next_attempt_at LIMIT :limit * 4)`;
for (const lim of [200, 20]) { const st = db.prepare(inner); const t = performance.now(); for (let i = 0; i < 200; i++) st.get({ now: Date.now() + 1e9, limit: lim, saturated: '[]' }); console.log('inner', lim, ((performance.now() - t) / 200).toFixed(3)); }
for (const lim of [200, 50, 20]) { const st = db.prepare(q); const t = performance.now(); for (let i = 0; i < 100; i++) { db.exec('BEGIN'); st.all({ now: Date.now() + 1e9, lease_until: 1, worker: 'x', limit: lim, saturated: '[]' }); db.exec('ROLLBACK'); } console.log('full new', lim, ((performance.now() - t) / 100).toFixed(3)); }
