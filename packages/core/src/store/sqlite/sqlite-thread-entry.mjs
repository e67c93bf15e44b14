// Entry of the SQLite store thread (workerData.module names its module: compiled .js from dist/, or the .ts source
// in development). A thread does not inherit the parent's tsx loader on every Node version: try the plain import, and
// register tsx (a development dependency) for this thread only if it cannot load .ts yet.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

// Linux names each thread /proc/<pid>/task/<tid>; the store reports this one's id so that a benchmark can read the
// thread's own CPU time there (SqliteThreadStore.threadIds). Elsewhere there is nothing to report.
try {
  parentPort?.postMessage({ tid: Number(readlinkSync('/proc/thread-self').split('/').pop()) });
} catch {
  /* not Linux */
}

const module = new URL(workerData.module, import.meta.url).href;
try {
  await import(module);
} catch (err) {
  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  const { register } = await import('tsx/esm/api');
  register();
  // A failed import is remembered per URL: ask again under another one.
  await import(`${module}?tsx`);
}
