// The checkpointer thread beside a store thread: its own connection copies the WAL into the database every
// `intervalMs` with a PASSIVE checkpoint, which never takes the writer's lock, so the store thread's commits never
// wait for a checkpoint's page copies and fsyncs (they used to stall it for tens of milliseconds, the latency tail).
// After a complete checkpoint the next commit starts the WAL from its beginning again, so it stays small.
// Plain JavaScript on purpose: a thread that loads TypeScript registers tsx, whose loader runs on a thread (and heap)
// of its own; this one needs none of it.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const port = parentPort;
const db = new Database(workerData.path);
db.pragma(`busy_timeout = ${workerData.busyTimeoutMs ?? 5000}`);

let busy = false;
function checkpoint() {
  if (busy || !db.open) return;
  busy = true;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    port.postMessage({ error: err.message });
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
