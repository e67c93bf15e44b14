// Runs the real `hookline` executable as a child process and collects its exit code and output.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ownChild } from '@hookline/core/testing';
import { main } from '../src/cli/main.ts';

export const BIN = fileURLToPath(new URL('../bin/hookline.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The child's environment: ours without HOOKLINE_* (a developer's own settings must not leak in), plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HOOKLINE_')) base[k] = v;
  return { ...base, ...env };
}

/** A command that has not exited by then is killed and its run fails: a stuck CLI fails its test, never hangs it. */
const CLI_DEADLINE_MS = 60_000;

/**
 * Starts `hookline …`; the caller reads its streams and waits for `done`. The child is SIGKILLed after
 * CLI_DEADLINE_MS, and at the latest when this process ends.
 */
export function startCli(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<CliRun>; stderrLine(match: RegExp): Promise<string> } {
  const child = ownChild(
    spawn(process.execPath, ['--conditions=source', BIN, ...args], {
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let overdue = false;
  const deadline = setTimeout(() => {
    overdue = true;
    child.kill('SIGKILL');
  }, CLI_DEADLINE_MS);
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ match: RegExp; resolve: (line: string) => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    for (const w of [...waiters]) {
      const line = stderr.split('\n').find((l) => w.match.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      if (overdue)
        reject(new Error(`hookline ${args.join(' ')} did not exit within ${CLI_DEADLINE_MS} ms; stderr: ${stderr}`));
      else resolve({ code, stdout, stderr });
    });
  });
  return {
    child,
    done,
    stderrLine: (match) =>
      new Promise((resolve, reject) => {
        const line = stderr.split('\n').find((l) => match.test(l));
        if (line !== undefined) return resolve(line);
        waiters.push({ match, resolve });
        void done.then(() => reject(new Error(`hookline exited before printing ${match}; stderr: ${stderr}`)));
      }),
  };
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return startCli(args, env).done;
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = any>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/**
 * The same CLI in this process (main() with captured streams): for checks that need not pay a process start each.
 * `env` is all the environment it sees.
 */
export async function runMain(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, env, {
    stdout: { write: (c: string) => void (stdout += c) },
    stderr: { write: (c: string) => void (stderr += c) },
  });
  return { code, stdout, stderr };
}
