// The inbox conformance suite on memory and on a real SQLite file (two connections: two processes' view).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { memoryInbox } from '../src/inbox/memory-inbox.ts';
import { sqliteInbox } from '../src/inbox/sqlite-inbox.ts';
import { runInboxConformance } from '../testing/inbox-conformance.ts';

runInboxConformance('memory', async () => {
  const store = memoryInbox();
  return { store, breakBackend: async () => store.setUnavailable(true), close: async () => {} };
});

runInboxConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-inbox-'));
  const db = new Database(join(dir, 'inbox.db'));
  const other = new Database(join(dir, 'inbox.db'));
  return {
    store: sqliteInbox(db),
    twin: sqliteInbox(other),
    breakBackend: async () => void db.close(),
    close: async () => {
      for (const handle of [db, other]) if (handle.open) handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
