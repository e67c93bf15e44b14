// What a store is as a whole, beside its parts: its dialect, schema migration, shutdown and readiness.
import type { StoreProblem } from './storage-fault.ts';

export interface StoreLifecycle {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Whether the queue's claimDue itself holds endpoint concurrency caps across worker processes (PostgreSQL), and leases
   * may be another live process's. A SQLite file has one worker process, whose lanes hold the caps; its claim only
   * skips the endpoints the worker reports saturated.
   */
  readonly capsAcrossWorkers: boolean;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Why the store cannot take writes now (readiness), or null: a full disk, failing writes, a failed checkpointer,
   * or a `fatal` failure (a failed fsync, a dead store thread) after which it refuses every call for good.
   */
  problem?(): Promise<StoreProblem | null>;
  /** `listener` is called once when the store fails for good: the process should exit and let recovery run. */
  onFatal?(listener: (err: Error) => void): void;
  /**
   * Stores shared by several processes (PostgreSQL: LISTEN/NOTIFY) call `cb` when another process commits work
   * that is due now, so idle dispatchers claim at once instead of at their next poll. Returns the unsubscribe.
   */
  onDue?(cb: () => void): () => void;
}
