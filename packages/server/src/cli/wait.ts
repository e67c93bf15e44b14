// Polling pauses for commands that follow the server (replay --wait, tail): they end early on SIGINT/SIGTERM.
import type { CliContext } from './cli-context.ts';

/** Resolves true after `ms`, or false as soon as the user interrupts. The timer never holds the process open. */
export function pause(ctx: CliContext, ms: number): Promise<boolean> {
  const signal = ctx.interrupted;
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    // The listener goes when the pause ends: a tail polling for hours must not pile them up.
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
