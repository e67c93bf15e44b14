// Prefixed identifiers that sort by creation time: `<prefix>_<10 chars time><16 chars random>` in Crockford base32.
import { randomBytes } from 'node:crypto';

export type IdPrefix = 'ten' | 'ep' | 'evt' | 'dlv' | 'att' | 'key' | 'rpl' | 'ntc' | 'sec' | 'msg';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: Buffer = Buffer.alloc(10);

/** Returns e.g. `dlv_01JD3X…`; ids made in the same millisecond still sort in creation order. */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  let rnd: Buffer;
  if (nowMs <= lastTime) {
    // Monotonic within one millisecond (or a clock that went back): increment the previous random part.
    rnd = Buffer.from(lastRandom);
    for (let i = rnd.length - 1; i >= 0; i--) {
      rnd[i] = (rnd[i] + 1) & 0xff;
      if (rnd[i] !== 0) break;
    }
    nowMs = lastTime;
  } else {
    rnd = randomBytes(10);
  }
  lastTime = nowMs;
  lastRandom = rnd;
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let bits = 0n;
  for (const b of rnd) bits = (bits << 8n) | BigInt(b);
  let rand = '';
  for (let i = 0; i < 16; i++) {
    rand = ALPHABET[Number(bits & 31n)] + rand;
    bits >>= 5n;
  }
  return `${prefix}_${time}${rand}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix + '_') && id.length === prefix.length + 27;
}
