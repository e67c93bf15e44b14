// A SQLite store's part modules by part name: the shared ones and SQLite's queue. The store thread binds them to its
// scope (sqlite-store.ts); the event loop's side forwards each module's functions by name (sqlite-thread.ts).
import { SHARED_PARTS } from '../compose-store.ts';
import * as sqliteQueue from '../queue/sqlite-queue.ts';

export const SQLITE_PARTS = { ...SHARED_PARTS, queue: sqliteQueue };
