// Time source for every rule with minutes, hours or days: injected so tests can drive it.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; used by tests and `hookline simulate`. */
export class VirtualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(ms: number): void {
    if (ms < this.#now) throw new Error(`virtual clock cannot go back (${ms} < ${this.#now})`);
    this.#now = ms;
  }
  advance(ms: number): void {
    this.set(this.#now + ms);
  }
}
