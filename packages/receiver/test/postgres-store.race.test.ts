// The dedup race on PostgreSQL with a warm pool: many concurrent identical deliveries, exactly one handler run.
// A cold pool opens its connections one by one and so serialises the "concurrent" claims; warmed, they truly race.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createWebhookHandler } from '../src/handler.ts';
import { signWebhook } from '../src/sign.ts';
import { postgresStore } from '../src/stores/postgres-store.ts';
import type { WebhookResponse } from '../src/webhook-answer.ts';
import { skipUnlessReachable } from './service-probe.ts';

const host = '127.0.0.1';
const skip = await skipUnlessReachable('postgres', host, 5432);
const POOL_SIZE = 16;
const COPIES = 40;
const ROUNDS = 20;
const secret = { kid: 'k1', secret: 'race test secret' };
const T = 1_750_000_000;

describe('postgres dedup race, warm pool', { skip }, () => {
  const database = `hookline_receiver_race_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let pool: pg.Pool;

  before(async () => {
    admin = new pg.Client({ host, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    pool = new pg.Pool({ host, user: 'postgres', database, max: POOL_SIZE });
    pool.on('error', () => {});
    // Warm: every connection open and idle before the race, so concurrent claims reach the server together.
    const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
    for (const c of clients) c.release();
    assert.equal(pool.totalCount, POOL_SIZE);
  });
  after(async () => {
    await pool?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
  });

  test(`${COPIES} concurrent claims of one id, ${ROUNDS} ids: exactly one claim wins each`, async () => {
    const store = postgresStore(pool);
    await store.get('warm-up'); // creates the table, so the race below is on claims alone
    for (let round = 0; round < ROUNDS; round++) {
      const id = `evt_claim_${round}`;
      const results = await Promise.all(Array.from({ length: COPIES }, () => store.claim(id, T * 1000, 60_000)));
      assert.equal(results.filter((r) => r.kind === 'claimed').length, 1, `${id}: ${JSON.stringify(results)}`);
      assert.equal(results.filter((r) => r.kind === 'in_progress').length, COPIES - 1);
    }
  });

  test(`${COPIES} concurrent identical deliveries through the handler, ${ROUNDS} ids: one handler run each, never a bare 500`, async () => {
    const store = postgresStore(pool);
    await store.get('warm-up');
    const runs = new Map<string, number>();
    const receive = createWebhookHandler({
      secrets: [secret],
      store,
      now: () => T * 1000,
      logger: () => {},
      events: {
        'order.shipped': {
          handle: async (event) => {
            runs.set(event.id, (runs.get(event.id) ?? 0) + 1);
          },
        },
      },
    });
    for (let round = 0; round < ROUNDS; round++) {
      const id = `evt_handler_${round}`;
      const body = JSON.stringify({
        event_id: id,
        type: 'order.shipped',
        version: 1,
        occurred_at: '2025-06-15T12:00:00Z',
        data: { round },
      });
      const headers = signWebhook({ secrets: secret, id, deliveryId: `dlv_${round}`, timestamp: T, body });
      const answers: WebhookResponse[] = await Promise.all(
        Array.from({ length: COPIES }, () => receive({ headers, rawBody: Buffer.from(body) })),
      );
      await receive.drain();
      assert.equal(runs.get(id), 1, `${id} ran ${runs.get(id) ?? 0} times`);
      // The winner's 202; the others a 202 again (already done) or 503 + Retry-After (still in progress).
      assert.equal(answers.filter((a) => a.status === 202).length >= 1, true);
      for (const a of answers) {
        assert.ok(a.status === 202 || a.status === 503, `unexpected ${a.status} ${a.body}`);
        if (a.status === 503) {
          assert.equal(a.headers['retry-after'], '10');
          assert.equal(JSON.parse(a.body).code, 'event_in_progress');
        }
      }
      assert.equal((await store.get(id))?.state, 'done');
    }
    // A redelivery after all that is the stored answer again, still without a second run.
    const id = 'evt_handler_0';
    const body = JSON.stringify({
      event_id: id,
      type: 'order.shipped',
      version: 1,
      occurred_at: '2025-06-15T12:00:00Z',
      data: { round: 0 },
    });
    const again = await receive({ headers: signWebhook({ secrets: secret, id, timestamp: T, body }), rawBody: body });
    assert.equal(again.status, 202);
    await receive.drain();
    assert.equal(runs.get(id), 1);
  });
});
