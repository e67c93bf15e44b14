// The narrow interface every durable inbox store implements (memory, SQLite, PostgreSQL, Redis).
import type { SignedRequest } from '../signed-request.ts';

/**
 * `pending`: stored, waiting until `availableAt`. `running`: leased to a worker until `availableAt`
 * (an expired lease is claimable again). `done`: the handler succeeded. `dead`: it kept failing.
 */
export type InboxState = 'pending' | 'running' | 'done' | 'dead';

/** What the receiver stores before its 2xx: the event as it arrived. */
export interface InboxEvent {
  readonly eventId: string;
  readonly type: string;
  readonly deliveryId: string | undefined;
  readonly scheme: SignedRequest['scheme'];
  /** The headers that matter (ids, timestamp, signature, content type), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body, byte for byte. */
  readonly body: Uint8Array;
  /** Milliseconds. */
  readonly receivedAt: number;
}

export interface InboxEntry extends InboxEvent {
  readonly state: InboxState;
  /** Incremented on every claim; fences a worker whose lease expired out of the entry. */
  readonly attempt: number;
  /** Failed runs since the entry was stored or last re-run from the dead letter. */
  readonly failures: number;
  /** pending: due time; running: lease expiry; done/dead: when it finished. Milliseconds. */
  readonly availableAt: number;
  readonly updatedAt: number;
  readonly error: string | undefined;
}

export type AcceptResult = { readonly kind: 'accepted' } | { readonly kind: 'duplicate'; readonly state: InboxState };

/**
 * Durable inbox rows. Every method throws `StorageUnavailable` when the backend fails; times
 * are passed in (milliseconds) so the inbox's injectable clock rules and tests need no sleeps.
 * Transitions out of `running` are fenced by `attempt`: they return false once the lease was lost.
 */
export interface InboxStore {
  /** Stores the event (id unique) in one write, pending and due at `receivedAt`; a known id is a duplicate. */
  accept(event: InboxEvent): Promise<AcceptResult>;
  /** Leases up to `limit` due entries (pending and due, or running with an expired lease) until `now + leaseMs`. */
  claim(now: number, leaseMs: number, limit: number): Promise<InboxEntry[]>;
  /** running → done. */
  complete(eventId: string, attempt: number, now: number): Promise<boolean>;
  /** running → pending, due at `at`, one more failure recorded with its error. */
  reschedule(eventId: string, attempt: number, error: string, at: number, now: number): Promise<boolean>;
  /** running → dead, with the error and one more failure. */
  bury(eventId: string, attempt: number, error: string, now: number): Promise<boolean>;
  /** dead → pending, due now, failures reset: the handler gets a fresh set of tries. */
  revive(eventId: string, now: number): Promise<boolean>;
  /** Dead entries, oldest first. */
  deadLetters(limit: number): Promise<InboxEntry[]>;
  get(eventId: string): Promise<InboxEntry | undefined>;
  /** Deletes up to `limit` done entries finished before `before` (ms); returns how many. */
  prune(before: number, limit: number): Promise<number>;
}

/** Errors are stored bounded; a handler's message is for people, not a dump. */
export const MAX_ERROR_LENGTH = 1000;
