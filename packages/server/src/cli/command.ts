// The shape of one `hookline <command>` module.
import type { CliContext } from './cli-context.ts';

export interface Command {
  readonly name: string;
  /** One line for `hookline --help`. */
  readonly summary: string;
  /** The full text for `hookline <command> --help`. */
  readonly help: string;
  /** Returns the exit code; throws CliError for user errors. */
  run(args: string[], ctx: CliContext): Promise<number>;
}
