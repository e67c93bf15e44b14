// Groups concurrent writes into few durable commits: callers submit items and wait for their batch's commit.

export class GroupCommit<I, O> {
  #queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  #flushing = 0;
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
    /**
     * Batches committing at once. 2 lets the next batch's statements run while the previous one's fsync is still
     * on its way to disk (stores whose sync is asynchronous, e.g. SQLite on its store thread); 1 is strictly serial.
     */
    private readonly concurrency = 1,
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

  /** `waited`: these items already waited through a commit, so they go at once, without lingering. */
  #kick(waited = false): void {
    if (this.#flushing >= this.concurrency || this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    // Let the callers of this turn of the event loop join the batch before it commits.
    const go = () => {
      this.#scheduled = false;
      void this.#run();
    };
    if (!waited && this.lingerMs > 0 && this.#queue.length < this.lingerFor) setTimeout(go, this.lingerMs);
    else setImmediate(go);
  }

  async #run(): Promise<void> {
    if (this.#flushing >= this.concurrency || this.#queue.length === 0) return;
    this.#flushing++;
    const batch = this.#queue.splice(0, this.maxBatch);
    this.#kick(true); // more than one batch's worth queued: the next may start beside this one
    try {
      const out = await this.flush(batch.map((b) => b.item));
      batch.forEach((b, i) => {
        const r = out[i];
        if (r instanceof Error) b.reject(r);
        else b.resolve(r);
      });
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.#flushing--;
      this.#kick(true);
    }
  }
}
