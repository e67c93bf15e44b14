// The inbox conformance suite on a real PostgreSQL database, with two pools (two processes' view).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postgresInbox } from '../src/inbox/postgres-inbox.ts';
import { runInboxConformance } from '../testing/inbox-conformance.ts';
import { skipUnlessReachable } from './service-probe.ts';

const host = '127.0.0.1';
const skip = await skipUnlessReachable('postgres', host, 5432);

runInboxConformance(
  'postgres',
  async () => {
    const database = `hookline_receiver_inbox_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ host, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const pools = [
      new pg.Pool({ host, user: 'postgres', database, max: 6 }),
      new pg.Pool({ host, user: 'postgres', database, max: 6 }),
    ];
    // DROP … WITH (FORCE) at close cuts any connection still open; that is expected, not a failure.
    for (const pool of pools) pool.on('error', () => {});
    const store = postgresInbox(pools[0]!);
    await store.get('create-the-table'); // one schema creation, not two racing
    const ended = new Set<pg.Pool>();
    return {
      store,
      twin: postgresInbox(pools[1]!),
      breakBackend: async () => {
        ended.add(pools[0]!);
        await pools[0]!.end();
      },
      close: async () => {
        for (const pool of pools) if (!ended.has(pool)) await pool.end();
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      },
    };
  },
  skip,
);
