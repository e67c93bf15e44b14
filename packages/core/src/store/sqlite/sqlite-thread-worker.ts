// The store thread: one SqliteDriver and the store's parts over it, answering SqliteThreadStore's calls in arrival
// order (the driver's mutex still orders transactions exactly as on the event loop).
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestLimits } from '../store.ts';
import { answerOf, decodeAcceptBatch } from './sqlite-accept-batch.ts';
import { SqliteDriver } from './sqlite-driver.ts';
import { sqliteStore } from './sqlite-store.ts';
import { reviveBuffers, type ThreadAnswer, type ThreadCall, type ThreadFatal } from './sqlite-thread-protocol.ts';

const port = parentPort!;
const store = sqliteStore(new SqliteDriver(workerData.path, workerData.options));
type Method = (...a: unknown[]) => Promise<unknown>;
const parts = store as unknown as Record<string, Record<string, Method>>;
const lifecycle = store as unknown as Record<string, Method>;
// Told before the failing call's own answer, so the caller learns the store is gone before any later answer.
store.onFatal?.((err) =>
  port.postMessage({
    fatal: { message: err.message, code: (err as { code?: string }).code ?? 'SQLITE_IOERR_FSYNC' },
  } satisfies ThreadFatal),
);

function reply(a: ThreadAnswer): void {
  port.postMessage(a);
}

port.on('message', async (m: ThreadCall) => {
  try {
    if (m.part === 'events' && m.method === 'acceptEvents') {
      // One transferred buffer per batch (sqlite-accept-batch.ts); the answer leaves out what the caller has.
      const results = await store.events.acceptEvents(
        decodeAcceptBatch(m.args[0] as ArrayBuffer),
        m.args[1] as IngestLimits | undefined,
      );
      return reply({ id: m.id, ok: true, value: answerOf(results) });
    }
    // A part's method is its module's function bound to the store's scope: called as is, no frame in between.
    const fn = m.part === null ? lifecycle[m.method] : parts[m.part]?.[m.method];
    if (typeof fn !== 'function') throw new Error(`the store has no method ${m.part ?? 'store'}.${m.method}`);
    const value = await fn(...reviveBuffers(m.args));
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
