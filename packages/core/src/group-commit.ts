// Groups concurrent writes into one durable commit: callers submit items and wait; one flush at a time.

export class GroupCommit<I, O> {
  #queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  #flushing = false;
  #scheduled = false;

  constructor(
    /** Returns one result per item; an Error in a slot rejects only that item's caller. */
    private readonly flush: (items: I[]) => Promise<Array<O | Error>>,
    private readonly maxBatch = 1000,
    /**
     * Under load, wait up to this long for `lingerFor` items before committing: one fsync then serves many callers.
     * 0 commits at the next turn of the event loop.
     */
    private readonly lingerMs = 0,
    private readonly lingerFor = 64,
  ) {}

  /** Resolves once the item's batch has committed. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#kick();
    });
  }

  get pending(): number {
    return this.#queue.length;
  }

  #kick(): void {
    if (this.#flushing || this.#scheduled) return;
    this.#scheduled = true;
    // Let the callers of this turn of the event loop join the batch before it commits.
    const go = () => {
      this.#scheduled = false;
      void this.#run();
    };
    if (this.lingerMs > 0 && this.#queue.length < this.lingerFor) setTimeout(go, this.lingerMs);
    else setImmediate(go);
  }

  async #run(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, this.maxBatch);
        try {
          const out = await this.flush(batch.map((b) => b.item));
          batch.forEach((b, i) => {
            const r = out[i];
            if (r instanceof Error) b.reject(r);
            else b.resolve(r);
          });
        } catch (err) {
          batch.forEach((b) => b.reject(err));
        }
      }
    } finally {
      this.#flushing = false;
    }
  }
}
