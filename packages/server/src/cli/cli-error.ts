// Exit codes of the `hookline` command and the one error type that carries them to main().

/** What an exit code means (docs/cli.md lists the same table). */
export const EXIT = {
  ok: 0,
  /** The command ran and failed: an API or engine error that is not one of the classes below. */
  failure: 1,
  /** The command line itself is wrong: unknown command or option, missing or malformed value. */
  usage: 2,
  /** The thing named does not exist (HTTP 404). */
  notFound: 3,
  /** The server understood and refused: conflict, validation, quota, credentials (HTTP 400/401/403/409/413/429). */
  refused: 4,
  /** The server or the storage cannot be reached (connection refused, DNS, HTTP 503). */
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A user-facing failure: main() prints `hookline: <message>` on one line and exits with `exitCode`, no stack. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): CliError {
  return new CliError(EXIT.usage, message);
}

/** The exit code an HTTP error status maps to. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 404) return EXIT.notFound;
  if (status === 503 || status === 502 || status === 504) return EXIT.unreachable;
  if (status >= 400 && status < 500) return EXIT.refused;
  return EXIT.failure;
}
