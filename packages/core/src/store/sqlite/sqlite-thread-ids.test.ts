import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { until } from '../../../testing/deadline.ts';
import { openSqliteThreadStore, type SqliteThreadStore } from './sqlite-thread.ts';

const onCpuNs = (tid: number) => Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);

test('the store thread and the checkpointer report their own Linux thread ids (per-thread CPU figures)', {
  skip: !existsSync('/proc/thread-self') && 'not Linux',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-thread-ids-'));
  const store = (await openSqliteThreadStore(join(dir, 'h.db'))) as SqliteThreadStore;
  try {
    await store.migrate();
    store.startCheckpointer(50);
    await until(() => store.threadIds().checkpointer !== undefined, Boolean, { what: 'both threads reported' });
    const { store: storeTid, checkpointer } = store.threadIds();
    assert.ok(storeTid && checkpointer && storeTid !== checkpointer && storeTid !== process.pid);
    // The store thread's id is the thread that does the store's work: its CPU time moves when the store works.
    const before = onCpuNs(storeTid);
    for (let i = 0; i < 200; i++) await store.catalog.getTenant(`ten_${i}`);
    assert.ok(onCpuNs(storeTid) > before, 'the reported thread did the work');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
