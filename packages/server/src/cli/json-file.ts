// Reads a JSON file a command was pointed at (a scenario, an example, a config), or fails with a usage error.
import { readFileSync } from 'node:fs';
import { usageError } from './cli-error.ts';

/** The parsed file; `command` and `what` name it in the one-line error (`doctor: cannot read schema file x.json (ENOENT)`). */
export function readJsonFile(command: string, path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw usageError(
      `${command}: cannot read ${what} file ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usageError(`${command}: ${what} file ${path} is not valid JSON (${(err as Error).message})`);
  }
}
