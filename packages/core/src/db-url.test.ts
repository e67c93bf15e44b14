// isPostgresUrl: which --db values open the PostgreSQL store and which a SQLite file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPostgresUrl } from './db-url.ts';

describe('isPostgresUrl', () => {
  it('takes both schemes in any case', () => {
    for (const db of [
      'postgres://hookline@127.0.0.1/hookline',
      'postgresql://hookline:pw@db:5432/hookline',
      'POSTGRES://hookline@db/hookline',
      'PostgreSQL://db/hookline',
    ])
      assert.equal(isPostgresUrl(db), true, db);
  });

  it('leaves SQLite paths and other schemes to SQLite', () => {
    for (const db of [
      './hookline.db',
      '/var/lib/hookline/postgres.db',
      'postgres.db',
      'postgres:/db',
      'mysql://db/hookline',
      ' postgres://db/hookline',
      'file:postgres://x',
    ])
      assert.equal(isPostgresUrl(db), false, db);
  });
});
