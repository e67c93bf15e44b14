// The process part of the store: the settings each running process published, so processes sharing a database can
// tell at start that they disagree (docs/scaling.md#settings-that-must-match).

/** One running process's published row. */
export interface ProcessRecord {
  /** Random per start (`prc_…`). */
  processId: string;
  /** The server's role: all, api or worker. */
  role: string;
  /** The operator's settings epoch (a rolling change raises it). */
  epoch: number;
  /** Setting name → the value safe to show (a digest or key-check value where the value itself is not). */
  settings: Readonly<Record<string, string>>;
  startedAt: number;
  /** The last heartbeat. */
  seenAt: number;
}

export interface ProcessStore {
  /** Publishes the row, or replaces the row of the same process. */
  putProcess(record: ProcessRecord): Promise<void>;
  /** The heartbeat; false when the row is gone (expired and purged), so the caller publishes it again. */
  touchProcess(processId: string, seenAt: number): Promise<boolean>;
  /** Forgets the rows not seen since `since`, then lists the others, oldest start first. */
  liveProcesses(since: number): Promise<ProcessRecord[]>;
  /** Removes the process's row; with `others`, every row but this process's (a SQLite file's sole owner). */
  removeProcess(processId: string, options?: { others?: boolean }): Promise<void>;
}
