import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAST_SEND_MS, type Lane, lookahead } from './lane.ts';

const lane = (cap: number, sendMs: number): Lane => ({ cap, sendMs, sending: 0, leased: 0, queue: [] });

test('a fast endpoint is leased leaseFactor times its cap ahead; a slow one only its cap', () => {
  assert.equal(FAST_SEND_MS, 250);
  assert.equal(lookahead(lane(4, 0), 3), 12);
  assert.equal(lookahead(lane(4, 250), 3), 12);
  assert.equal(lookahead(lane(4, 251), 3), 4);
  assert.equal(lookahead(lane(4, 10), 1), 4);
});
