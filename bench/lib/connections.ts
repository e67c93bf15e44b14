// How many HTTP connections a measured engine opens and holds. A scenario's CPU per delivery grows with the sends it has
// on the wire at once (each one's state outlives young-generation GCs; more sockets, clients and connects), not with
// its endpoint count as such: these figures show that concurrency beside the CPU.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdirSync, readlinkSync } from 'node:fs';

/** Counts the connections undici opens from now until `stop()`. */
export function connectionsOpened(): { stop(): number } {
  let n = 0;
  const onConnect = () => void n++;
  subscribe('undici:client:connected', onConnect);
  return {
    stop() {
      unsubscribe('undici:client:connected', onConnect);
      return n;
    },
  };
}

/** Sockets this process holds open now (Linux: /proc/self/fd); null elsewhere. */
export function openSockets(): number | null {
  try {
    let n = 0;
    for (const fd of readdirSync('/proc/self/fd')) {
      try {
        if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) n++;
      } catch {
        // closed between the listing and the read
      }
    }
    return n;
  } catch {
    return null;
  }
}
