// defineEvent types `event.payload` from the contract: checked by the typechecker (scripts/test.sh runs tsc first),
// and at run time the contract it returns is the one an inbox runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SchemaPayload } from './contract.ts';
import { createWebhookHandler } from './handler.ts';
import { createInbox } from './inbox/inbox.ts';
import { memoryInbox } from './inbox/memory-inbox.ts';
import { signWebhook } from './sign.ts';
import { defineEvent, type WebhookEvent } from './webhook-event.ts';

/** True only when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;

const shipped = defineEvent({
  schema: {
    type: 'object',
    required: ['event_id', 'data'],
    properties: {
      event_id: { type: 'string' },
      data: {
        type: 'object',
        required: ['order_id', 'items'],
        properties: {
          order_id: { type: 'string' },
          items: {
            type: 'array',
            items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
          },
          carrier: { enum: ['ups', 'dhl'] },
          weight: { type: ['number', 'null'] },
        },
      },
    },
  },
  handle(event) {
    same<
      typeof event.payload,
      {
        event_id: string;
        data: {
          order_id: string;
          items: { sku: string }[];
          carrier?: 'ups' | 'dhl';
          weight?: number | null;
        };
      }
    >(true);
    // @ts-expect-error order_id is a string, not a number
    const wrong: number = event.payload.data.order_id;
    void wrong;
    seen.push(event.payload.data.items.map((item) => item.sku).join(','));
  },
});
const seen: string[] = [];

test('a schema types the payload: required present, others optional, enum literal, items typed; none is unknown', () => {
  same<SchemaPayload<{ type: 'string' }>, string>(true);
  same<SchemaPayload<{ type: 'object'; required: ['a'] }>, { a: unknown }>(true);
  same<SchemaPayload<{ enum: readonly [1, 2] }>, 1 | 2>(true);
  same<SchemaPayload<{ type: 'array' }>, unknown[]>(true);
  same<SchemaPayload<Record<never, never>>, unknown>(true);
  // Without a schema, the type named: a wrong field is a compile error.
  const named = defineEvent<{ data: { refund_id: string } }>({
    handle: (event: WebhookEvent<{ data: { refund_id: string } }>) => {
      // @ts-expect-error no such field
      void event.payload.data.amount;
    },
  });
  assert.equal(typeof named.handle, 'function');
});

test('the contract defineEvent returns is the one given: an inbox validates with its schema and runs its handle', async () => {
  const now = 1_750_000_000;
  const inbox = createInbox({
    store: memoryInbox(),
    events: { 'order.shipped': shipped },
    now: () => now * 1000,
    logger: () => {},
  });
  const secret = { kid: 'sec_01JGZ6Q4W8N5T2R7Y3K9M1B0XC', secret: 'whsec_typed' };
  const receive = createWebhookHandler({ secrets: [secret], inbox, now: () => now * 1000, logger: () => {} });
  const send = (id: string, data: unknown) => {
    const body = JSON.stringify({ event_id: id, type: 'order.shipped', data });
    return receive({ headers: signWebhook({ secrets: secret, id, timestamp: now, body }), rawBody: body });
  };
  assert.equal((await send('evt_1', { order_id: 'o1', items: [{ sku: 'a' }, { sku: 'b' }] })).status, 202);
  assert.equal((await send('evt_2', { order_id: 'o2' })).status, 400, 'the schema is the one given');
  assert.equal(await inbox.runOnce(), 1);
  assert.deepEqual(seen, ['a,b']);
});
