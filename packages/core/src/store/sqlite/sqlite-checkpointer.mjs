// The checkpointer thread beside a store thread: its own connection copies the WAL into the database every
// `intervalMs` with a PASSIVE checkpoint, which never takes the writer's lock, so the store thread's commits never
// wait for a checkpoint's page copies and fsyncs (they used to stall it for tens of milliseconds, the latency tail).
// After a complete checkpoint the next commit starts the WAL from its beginning again, so it stays small. The file
// itself is bounded too: when nothing was committed since the last round (the store is idle) or the WAL is past
// `walLimitBytes`, a TRUNCATE checkpoint empties it (it waits for writers, so it runs when they are idle or must).
// Every failure is posted ({ error, code }) and so is the first success after one ({ ok: true }): the store reports
// them in logs and readiness, and a failed fsync here ends the store like WalSync's own.
// Plain JavaScript on purpose: a thread that loads TypeScript registers tsx, whose loader runs on a thread (and heap)
// of its own; this one needs none of it.

import { readlinkSync, statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const port = parentPort;
// This thread's id on Linux (/proc/<pid>/task/<tid>), for per-thread CPU figures (SqliteThreadStore.threadIds).
try {
  port.postMessage({ tid: Number(readlinkSync('/proc/thread-self').split('/').pop()) });
} catch {
  /* not Linux */
}
const db = new Database(workerData.path);
const busyTimeoutMs = workerData.busyTimeoutMs ?? 5000;
const walLimitBytes = workerData.walLimitBytes ?? 16 * 1024 * 1024;
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
db.pragma(`journal_size_limit = ${walLimitBytes}`);
const walPath = `${db.name}-wal`;

let busy = false;
let failing = false;
let lastVersion = -1;

function walSize() {
  try {
    return statSync(walPath).size;
  } catch {
    return 0;
  }
}

function checkpoint() {
  if (busy || !db.open) return;
  busy = true;
  try {
    const size = walSize();
    // data_version moves whenever another connection commits: unchanged since the last round means idle.
    const version = db.pragma('data_version', { simple: true });
    const idle = size > 0 && version === lastVersion;
    lastVersion = version;
    if (idle || size > walLimitBytes) {
      // An idle store is not held up at all; a busy one past the limit waits at most a short while, once a round.
      db.pragma(`busy_timeout = ${idle ? busyTimeoutMs : Math.min(busyTimeoutMs, 250)}`);
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      }
    } else {
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    if (failing) port.postMessage({ ok: true });
    failing = false;
  } catch (err) {
    // Another connection holding the lock is no failure: the next round tries again.
    if (err.code !== 'SQLITE_BUSY' && err.code !== 'SQLITE_LOCKED') {
      failing = true;
      port.postMessage({ error: err.message, code: typeof err.code === 'string' ? err.code : undefined });
    }
  } finally {
    busy = false;
  }
}

const timer = setInterval(checkpoint, workerData.intervalMs ?? 200);
port.on('message', (m) => {
  if (m !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  port.postMessage('closed');
});
