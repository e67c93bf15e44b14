// Entry of the SQLite store thread (workerData.module names its module: compiled .js from dist/, or the .ts source
// in development). A thread does not inherit the parent's tsx loader on every Node version: try the plain import, and
// register tsx (a development dependency) for this thread only if it cannot load .ts yet.
import { workerData } from 'node:worker_threads';

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
