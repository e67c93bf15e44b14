// What every command gets from main(): output streams, whether they are terminals, the environment, signals.

export interface OutputStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliContext {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** The process environment, read once by the bin shim and passed down (HOOKLINE_URL, HOOKLINE_TOKEN, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Aborted when SIGINT or SIGTERM arrives (reason: the signal's name). Reading it installs the handlers, so only
   * long-running commands (serve, tail, replay --wait) catch Ctrl-C; the rest end the usual way.
   */
  readonly interrupted: AbortSignal;
}

/** Writes a line to stdout. */
export function out(ctx: CliContext, line = ''): void {
  ctx.stdout.write(`${line}\n`);
}

/** Writes a line to stderr (progress, notices): stdout stays clean for pipes. */
export function note(ctx: CliContext, line: string): void {
  ctx.stderr.write(`${line}\n`);
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Resolves with the signal's name once the command is interrupted. */
export function whenInterrupted(ctx: CliContext): Promise<string> {
  const signal = ctx.interrupted;
  return new Promise((resolve) => {
    if (signal.aborted) resolve(String(signal.reason));
    else signal.addEventListener('abort', () => resolve(String(signal.reason)), { once: true });
  });
}
