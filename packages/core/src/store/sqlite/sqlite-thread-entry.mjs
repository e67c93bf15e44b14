// Entry of the SQLite store thread. The sources are TypeScript, and a thread does not inherit the parent's tsx
// loader on every Node version: try the plain import, and register tsx for this thread if it cannot load .ts yet.
try {
  await import('./sqlite-thread-worker.ts');
} catch (err) {
  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  const { register } = await import('tsx/esm/api');
  register();
  // A failed import is remembered per URL: ask again under another one.
  await import('./sqlite-thread-worker.ts?tsx');
}
