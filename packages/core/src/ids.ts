// Prefixed identifiers that sort by creation time: `<prefix>_<10 chars time><16 chars random>` in Crockford base32.
import { randomFillSync } from 'node:crypto';

export type IdPrefix = 'ten' | 'ep' | 'evt' | 'dlv' | 'att' | 'key' | 'rpl' | 'ntc' | 'sec' | 'msg';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
// The last id's 80 random bits as two 40-bit halves (exact in a double): incremented in place within a millisecond,
// with no Buffer per id (a copy and two Buffers per id were most of newId's time in the ingest profile).
let lastHi = 0;
let lastLo = 0;
const HALF = 2 ** 40;

/** Random bytes drawn from a pooled buffer: one getrandom call per 409 ids instead of one each. */
const POOL = Buffer.allocUnsafe(4090);
let poolAt = POOL.length;
function random10(): void {
  if (poolAt + 10 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  lastHi = POOL[poolAt] * 2 ** 32 + POOL.readUInt32BE(poolAt + 1);
  lastLo = POOL[poolAt + 5] * 2 ** 32 + POOL.readUInt32BE(poolAt + 6);
  poolAt += 10;
}

/** A 40-bit number as 8 Crockford base32 characters. */
function base32x8(n: number): string {
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

// The time part of the last millisecond an id was made in: ids of one millisecond share it.
let timeMs = -1;
let timeText = '';

/** Returns e.g. `dlv_01JD3X…`; ids made in the same millisecond still sort in creation order. */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  if (nowMs <= lastTime) {
    // Monotonic within one millisecond (or a clock that went back): increment the previous random part (80 bits,
    // wrapping to zero past the largest).
    if (++lastLo === HALF) {
      lastLo = 0;
      if (++lastHi === HALF) lastHi = 0;
    }
    nowMs = lastTime;
  } else {
    random10();
  }
  lastTime = nowMs;
  if (nowMs !== timeMs) {
    timeText = time10(nowMs);
    timeMs = nowMs;
  }
  return `${prefix}_${timeText}${base32x8(lastHi)}${base32x8(lastLo)}`;
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
