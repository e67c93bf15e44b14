import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresStore } from '../src/stores/postgres-store.ts';
import { runStoreConformance } from '../testing/store-conformance.ts';
import { skipUnlessReachable } from './service-probe.ts';

const host = '127.0.0.1';
const skip = await skipUnlessReachable('postgres', host, 5432);

runStoreConformance(
  'postgres',
  async () => {
    const database = `hookline_receiver_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ host, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const pool = new pg.Pool({ host, user: 'postgres', database, max: 12 });
    // DROP … WITH (FORCE) at close cuts any connection still open; that is expected, not a failure.
    pool.on('error', () => {});
    let ended = false;
    return {
      store: postgresStore(pool),
      breakBackend: async () => {
        ended = true;
        await pool.end();
      },
      close: async () => {
        if (!ended) await pool.end();
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      },
    };
  },
  { prunes: true, skip },
);
