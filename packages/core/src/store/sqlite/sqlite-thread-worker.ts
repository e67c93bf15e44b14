// The store thread: one SqliteDriver + SqlStore, answering SqliteThreadStore's calls in arrival order (the
// driver's mutex still orders transactions exactly as on the event loop).
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestLimits } from '../store.ts';
import { answerOf, decodeAcceptBatch } from './sqlite-accept-batch.ts';
import { SqliteDriver } from './sqlite-driver.ts';
import { SqliteSqlStore } from './sqlite-sql-store.ts';
import { reviveBuffers, type ThreadAnswer, type ThreadCall, type ThreadFatal } from './sqlite-thread-protocol.ts';

const port = parentPort!;
const store = new SqliteSqlStore(new SqliteDriver(workerData.path, workerData.options));
// Told before the failing call's own answer, so the caller learns the store is gone before any later answer.
store.onFatal((err) =>
  port.postMessage({
    fatal: { message: err.message, code: (err as { code?: string }).code ?? 'SQLITE_IOERR_FSYNC' },
  } satisfies ThreadFatal),
);

function reply(a: ThreadAnswer): void {
  port.postMessage(a);
}

port.on('message', async (m: ThreadCall) => {
  try {
    if (m.method === 'acceptEvents') {
      // One transferred buffer per batch (sqlite-accept-batch.ts); the answer leaves out what the caller has.
      const results = await store.acceptEvents(
        decodeAcceptBatch(m.args[0] as ArrayBuffer),
        m.args[1] as IngestLimits | undefined,
      );
      return reply({ id: m.id, ok: true, value: answerOf(results) });
    }
    const fn = (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[m.method];
    if (typeof fn !== 'function') throw new Error(`the store has no method ${m.method}`);
    const value = await fn.apply(store, reviveBuffers(m.args));
    reply({ id: m.id, ok: true, value });
  } catch (err) {
    const e = err as { name?: string; message?: string; code?: unknown; stack?: string };
    reply({
      id: m.id,
      ok: false,
      error: {
        name: e?.name ?? 'Error',
        message: e?.message ?? String(err),
        code: typeof e?.code === 'string' ? e.code : undefined,
        stack: e?.stack,
      },
    });
  }
});
