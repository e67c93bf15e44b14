// Idempotent requests (docs/svix-compatibility.md#idempotency): the first request with a key runs, its answer is kept
// in the store for 12 h and every repeat of the same request gets it back; a repeat that arrives while the first still
// runs waits for it (across processes: the record is in the store); the same key with another request is 409.
import { setTimeout as sleep } from 'node:timers/promises';
import { fail } from '../errors.ts';
import type { EngineParts } from './engine-parts.ts';

/** How long an answer is kept for its key. */
export const IDEMPOTENCY_TTL_MS = 12 * 3_600_000;
/** How often a waiting repeat looks again, and how long it waits at most before it is told to retry. */
const POLL_MS = 25;
const WAIT_MS = 30_000;
/**
 * A claim still unanswered this long after it was made belongs to a request whose process died (the server's
 * request timeout ends a live one sooner): the next repeat runs in its place instead of waiting for 12 h.
 */
export const IDEMPOTENCY_ABANDONED_MS = 120_000;

export interface IdempotentAnswer {
  status: number;
  body: string;
}

export class IdempotencyOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /**
   * Runs `fn` once per `scope` + `key` + `requestHash` within 12 h and answers every repeat with what it answered.
   * An answer of 500 or above is not kept (the key is released: a repeat runs again), nor is a thrown error.
   */
  async run(
    scope: string,
    key: string,
    requestHash: string,
    fn: () => Promise<IdempotentAnswer>,
  ): Promise<IdempotentAnswer & { repeated: boolean }> {
    const { store, clock } = this.#p;
    const deadline = Date.now() + WAIT_MS; // a wall-clock wait for another request, not a domain time
    for (;;) {
      const claim = await store.svix.claimIdempotencyKey(
        scope,
        key,
        requestHash,
        clock.now(),
        IDEMPOTENCY_TTL_MS,
        IDEMPOTENCY_ABANDONED_MS,
      );
      if (claim.kind === 'claimed') break;
      const r = claim.record;
      if (r.requestHash !== requestHash) throw fail('idempotency_key_reused', { key });
      if (r.status !== null && r.body !== null) return { status: r.status, body: r.body, repeated: true };
      // The first request still runs: wait for its answer (or its release, after which this one runs instead).
      if (Date.now() > deadline) throw fail('request_timeout', { ms: WAIT_MS });
      await sleep(POLL_MS);
    }
    let answer: IdempotentAnswer;
    try {
      answer = await fn();
    } catch (err) {
      await store.svix.dropIdempotencyKey(scope, key);
      throw err;
    }
    if (answer.status >= 500) await store.svix.dropIdempotencyKey(scope, key);
    else await store.svix.finishIdempotencyKey(scope, key, answer.status, answer.body);
    return { ...answer, repeated: false };
  }
}
