// What a SQL dialect must provide for the store's parts: named-parameter statements by file name, and transactions.

import type { StoreProblem } from './storage-fault.ts';

export type SqlParams = Record<string, unknown>;

export interface SqlExecutor {
  /** Runs the statement named `name` (its `.sql` file) and returns its rows. */
  all<T = Record<string, any>>(name: string, params?: SqlParams): Promise<T[]>;
  /** Runs the statement and returns the number of rows it changed. */
  run(name: string, params?: SqlParams): Promise<number>;
}

export interface SqlDriver extends SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction, committed durably before the promise resolves. `{ durable: false }` is only for
   * writes that may be lost in an OS crash without breaking a promise (a claim's lease: the delivery is simply
   * claimed again); its commit is synced by the next durable commit.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
  /**
   * Where the API's event searches read, when not the driver itself: PostgreSQL's own small pool under a shorter
   * statement timeout, so a search never takes a connection delivery needs (SQLite: absent, bounded batches instead).
   */
  readonly search?: SqlExecutor;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /** See Store.problem. */
  problem?(): Promise<StoreProblem | null>;
  /** See Store.onFatal. */
  onFatal?(listener: (err: Error) => void): void;
  close(): Promise<void>;
}
