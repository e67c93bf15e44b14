// Per-key single flight with one trailing run: many callers asking "re-evaluate scope X" cost one query at a time.

interface KeyState {
  tail: Promise<void>;
  queued: Promise<void> | null;
  last: Promise<void> | null;
}

export class Coalescer {
  readonly #keys = new Map<string, KeyState>();

  /**
   * Runs `fn` for `key` after any run already in flight. Callers arriving while a run is queued (not started)
   * join it: it starts after their request, so it sees everything they committed before asking.
   */
  run(key: string, fn: () => Promise<void>): Promise<void> {
    let st = this.#keys.get(key);
    if (!st) {
      st = { tail: Promise.resolve(), queued: null, last: null };
      this.#keys.set(key, st);
    }
    if (st.queued) return st.queued;
    const s = st;
    const p: Promise<void> = s.tail.then(() => {
      s.queued = null;
      return fn();
    });
    s.queued = p;
    s.last = p;
    s.tail = p.then(
      () => this.#done(key, s, p),
      () => this.#done(key, s, p),
    );
    return p;
  }

  #done(key: string, s: KeyState, p: Promise<void>): void {
    if (s.last === p && this.#keys.get(key) === s) this.#keys.delete(key);
  }

  /** Keys with a run in flight or queued (tests). */
  get size(): number {
    return this.#keys.size;
  }
}
