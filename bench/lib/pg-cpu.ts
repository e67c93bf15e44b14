// The PostgreSQL server's own CPU time, read from /proc: the sum of user + system time of every process named
// `postgres` (the postmaster, the backends, the WAL writer, the checkpointer, autovacuum). The bench runs against a
// server on this machine, so its cost per delivery can be reported beside the workers' (pg_cpu_us_per_delivery).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on Linux unless told otherwise). */
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Per process: CPU µs so far, keyed by pid; null where /proc cannot be read (not Linux). */
export function postgresCpu(): Map<number, number> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const usPerTick = 1e6 / clockTicks();
  const out = new Map<number, number>();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // it ended while we read
    }
    // pid (comm) state ppid … : comm may hold spaces, so the fields are counted after its closing parenthesis.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // After comm: state(0) … utime is field 14 of the line, i.e. index 11 here; stime index 12.
    out.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * usPerTick);
  }
  return out;
}

/**
 * CPU µs the server's processes spent between two readings. Processes that ended in between are missing from the
 * second reading: their time is lost (a benchmark keeps its connections open, so its backends are all counted).
 */
export function postgresCpuSince(before: Map<number, number> | null): number | null {
  const after = postgresCpu();
  if (!before || !after) return null;
  let us = 0;
  for (const [pid, t] of after) us += t - (before.get(pid) ?? 0);
  return us;
}
