// CPU time of an engine process, split by thread: the event loop (the main thread), the SQLite store thread, the
// checkpointer, and the rest (V8's GC and compiler threads, libuv's pool). Linux keeps each thread's time on CPU in
// nanoseconds in /proc/<pid>/task/<tid>/schedstat; the store threads report their ids (SqliteThreadStore.threadIds).
// CPU time barely moves when the machine is loaded, throughput does: compare these across runs.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadIds {
  store?: number;
  checkpointer?: number;
}

type Sample = { total: number; byTid: Map<number, number> };

function onCpuNs(pid: number, tid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null; // the thread ended, or this is not Linux
  }
}

/** The process's total CPU (user + system, every thread that ever ran) in ns, from /proc/<pid>/stat's clock ticks. */
function processCpuNs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), i.e. 12 and 13 after the command name; USER_HZ is 100 on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 1e7;
  } catch {
    return null;
  }
}

function sample(pid: number): Sample | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const byTid = new Map<number, number>();
  let sum = 0;
  for (const t of tids) {
    const ns = onCpuNs(pid, Number(t));
    if (ns === null) continue;
    byTid.set(Number(t), ns);
    sum += ns;
  }
  // schedstat is exact for the threads alive now; the process total also counts threads that have ended.
  return { total: Math.max(sum, processCpuNs(pid) ?? 0), byTid };
}

export interface CpuSplit {
  /** µs of CPU per unit of work (delivery or event), every thread of the process. */
  cpu_us_per_delivery: number;
  /** The same, by thread. */
  cpu_us_by_thread: { event_loop: number; store_thread: number | null; checkpointer: number | null; other: number };
}

/** Starts measuring `pid`'s threads (default: this process); `done(units, ids)` gives µs per unit, split by thread. */
export function threadCpu(pid = process.pid): { done(units: number, ids?: ThreadIds): CpuSplit | null } {
  const start = sample(pid);
  return {
    done(units, ids = {}) {
      const end = sample(pid);
      if (!start || !end || units <= 0) return null;
      const delta = (tid: number | undefined) =>
        tid === undefined || !end.byTid.has(tid) ? null : (end.byTid.get(tid)! - (start.byTid.get(tid) ?? 0)) / 1000;
      const perUnit = (us: number | null) => (us === null ? null : Math.round((us / units) * 10) / 10);
      const total = (end.total - start.total) / 1000;
      const loop = delta(pid) ?? 0;
      const store = delta(ids.store);
      const checkpointer = delta(ids.checkpointer);
      return {
        cpu_us_per_delivery: Math.round(total / units),
        cpu_us_by_thread: {
          event_loop: perUnit(loop)!,
          store_thread: perUnit(store),
          checkpointer: perUnit(checkpointer),
          other: perUnit(Math.max(0, total - loop - (store ?? 0) - (checkpointer ?? 0)))!,
        },
      };
    },
  };
}

/** The store's thread ids when it is the SQLite thread store (others have none). */
export function storeThreadIds(store: unknown): ThreadIds {
  const s = store as { threadIds?: () => ThreadIds };
  return typeof s.threadIds === 'function' ? s.threadIds() : {};
}
