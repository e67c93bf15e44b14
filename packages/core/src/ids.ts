// Prefixed identifiers that sort by creation time: `<prefix>_<10 chars time><16 chars random>` in Crockford base32.
import { randomFillSync } from 'node:crypto';

export type IdPrefix = 'ten' | 'ep' | 'evt' | 'dlv' | 'att' | 'key' | 'rpl' | 'ntc' | 'sec' | 'msg';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: Buffer = Buffer.alloc(10);

/** Random bytes drawn from a pooled buffer: one getrandom call per 409 ids instead of one each. */
const POOL = Buffer.allocUnsafe(4090);
let poolAt = POOL.length;
function random10(): Buffer {
  if (poolAt + 10 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const out = Buffer.from(POOL.subarray(poolAt, poolAt + 10));
  poolAt += 10;
  return out;
}

/** Five bytes from `at`, big-endian, as 8 Crockford base32 characters. */
function base32x8(b: Buffer, at: number): string {
  let n = b[at] * 2 ** 32 + b.readUInt32BE(at + 1);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

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
    rnd = random10();
  }
  lastTime = nowMs;
  lastRandom = rnd;
  const time = time10(nowMs);
  // 80 random bits as 16 characters: two 40-bit halves (exact in a double), 8 characters each.
  return `${prefix}_${time}${base32x8(rnd, 0)}${base32x8(rnd, 5)}`;
}

/** The smallest id of `prefix` made at `ms`: with the next millisecond's, the id range of a time window. */
export function idAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${time10(ms)}${'0'.repeat(16)}`;
}

/** The millisecond an id records (its first 10 characters after the prefix). */
export function idTime(id: string): number {
  const at = id.indexOf('_') + 1;
  let t = 0;
  for (let i = at; i < at + 10; i++) t = t * 32 + ALPHABET.indexOf(id[i]);
  return t;
}

function time10(ms: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
