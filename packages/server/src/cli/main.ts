// The `hookline` command line: picks the command, prints help, turns errors into one line and an exit code.
import { createRequire } from 'node:module';
import type { CliContext, OutputStream } from './cli-context.ts';
import { CliError, EXIT, exitCodeForStatus } from './cli-error.ts';
import type { Command } from './command.ts';

/** Commands load on demand: `simulate` should not pay for the HTTP server's start-up, nor `send` for the engine's. */
const COMMANDS: ReadonlyArray<{ name: string; group: string; summary: string; load: () => Promise<Command> }> = [
  {
    name: 'serve',
    group: 'server',
    summary: 'run the HTTP API and the delivery workers',
    load: async () => (await import('./commands/serve.ts')).serve,
  },
  {
    name: 'migrate',
    group: 'server',
    summary: 'create or upgrade the database schema',
    load: async () => (await import('./commands/migrate.ts')).migrate,
  },
  {
    name: 'backup',
    group: 'server',
    summary: 'copy the SQLite database to a new file while the server runs',
    load: async () => (await import('./commands/backup.ts')).backup,
  },
  {
    name: 'tenants',
    group: 'client',
    summary: 'create, list, show and delete tenants',
    load: async () => (await import('./commands/tenants.ts')).tenants,
  },
  {
    name: 'endpoints',
    group: 'client',
    summary: 'add, list, show, set, limit, pause, resume, retry, rotate, secret, test and delete endpoints',
    load: async () => (await import('./commands/endpoints.ts')).endpoints,
  },
  {
    name: 'send',
    group: 'client',
    summary: 'send an event',
    load: async () => (await import('./commands/send.ts')).send,
  },
  {
    name: 'deliveries',
    group: 'client',
    summary: 'list deliveries (the dead letter: --status failed), show one with its attempts, retry or dismiss one',
    load: async () => (await import('./commands/deliveries.ts')).deliveries,
  },
  {
    name: 'events',
    group: 'client',
    summary: 'search events (type, time, event_id prefix, payload filter) or export them as NDJSON',
    load: async () => (await import('./commands/events.ts')).events,
  },
  {
    name: 'replay',
    group: 'client',
    summary: "replay one delivery, or an endpoint's failed deliveries in a time window",
    load: async () => (await import('./commands/replay.ts')).replay,
  },
  {
    name: 'tail',
    group: 'client',
    summary: 'follow delivery attempts live',
    load: async () => (await import('./commands/tail.ts')).tail,
  },
  {
    name: 'breaker',
    group: 'client',
    summary: 'show or reset a circuit breaker',
    load: async () => (await import('./commands/breaker.ts')).breaker,
  },
  {
    name: 'audit',
    group: 'client',
    summary: 'read, verify or export the audit log',
    load: async () => (await import('./commands/audit.ts')).audit,
  },
  {
    name: 'doctor',
    group: 'tools',
    summary: 'check a webhook receiver against the ugly cases (docs/rules.md#tool-doctor) and grade it',
    load: async () => (await import('./commands/doctor.ts')).doctor,
  },
  {
    name: 'simulate',
    group: 'tools',
    summary: 'print the exact attempt timeline of a policy against a scripted receiver',
    load: async () => (await import('./commands/simulate.ts')).simulate,
  },
];

export const EXIT_CODES_HELP = `Exit codes:
  0  ok
  1  runtime or API failure
  2  usage error (unknown command or option, bad value)
  3  not found
  4  conflict or refused by the rules (validation, credentials, quota, paused endpoint)
  5  cannot reach the server or the storage`;

/** The version of the installed @hookline/server (the same relative path from src/cli and dist/cli). */
function packageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const group = (g: string) =>
    COMMANDS.filter((c) => c.group === g)
      .map((c) => `  ${c.name.padEnd(width)}${c.summary}`)
      .join('\n');
  return `hookline — self-hosted webhook delivery

Usage: hookline <command> [options]

Server:
${group('server')}

Client (talks to a running server; --api-url, --token, --tenant or HOOKLINE_URL, HOOKLINE_TOKEN, HOOKLINE_TENANT):
${group('client')}

Tools:
${group('tools')}

Run 'hookline <command> --help' for a command's options and examples.

${EXIT_CODES_HELP}`;
}

export interface MainIo {
  stdout?: OutputStream;
  stderr?: OutputStream;
}

/** Runs one command line (without `node` and the script); resolves to the exit code, never throws. */
export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = {},
  io: MainIo = {},
): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const interruption = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => interruption.abort(signal);
  let listening = false;
  const ctx: CliContext = {
    stdout,
    stderr,
    env,
    get interrupted() {
      if (!listening) {
        listening = true;
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
      }
      return interruption.signal;
    },
  };
  try {
    return await dispatch(argv, ctx, io);
  } finally {
    // main() may run many times in one process (tests): leave no handler behind.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function dispatch(argv: string[], ctx: CliContext, io: MainIo): Promise<number> {
  const { stdout, stderr, env } = ctx;
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0]) return main([rest[0], '--help'], env, io);
    // Bare `hookline` is a usage error: the help goes to stderr so a pipe does not take it for output.
    (name === undefined ? stderr : stdout).write(`${mainHelp()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    stdout.write(`hookline ${packageVersion()}\n`);
    return EXIT.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    stderr.write(`hookline: unknown command '${name}'; run 'hookline --help' for the list\n`);
    return EXIT.usage;
  }
  try {
    const command = await entry.load();
    const beforeDashes = rest.indexOf('--') < 0 ? rest : rest.slice(0, rest.indexOf('--'));
    if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
      stdout.write(`${command.help}\n`);
      return EXIT.ok;
    }
    return await command.run(rest, ctx);
  } catch (err) {
    const { code, message } = describeFailure(err);
    stderr.write(`hookline: ${message}\n`);
    if (code === EXIT.failure && err instanceof Error && err.stack && (await debugRequested(env)))
      stderr.write(`${err.stack}\n`);
    return code;
  }
}

/** HOOKLINE_DEBUG as client-config.ts reads it (loaded only on this failure path); a value it refuses prints no stack. */
async function debugRequested(env: CliContext['env']): Promise<boolean> {
  const { resolveClientConfig } = await import('./client-config.ts');
  try {
    return resolveClientConfig({ env }).debug;
  } catch {
    return false;
  }
}

/** One line and an exit code for anything a command threw; stacks only with HOOKLINE_DEBUG=1. */
function describeFailure(err: unknown): { code: number; message: string } {
  if (err instanceof CliError) return { code: err.exitCode, message: oneLine(err.message) };
  const e = err as { name?: string; code?: string; message?: string; status?: number } | null;
  // Core's HooklineError, recognised by shape: importing the engine here would slow every client command's start.
  if (e?.name === 'HooklineError' && typeof e.status === 'number')
    return { code: exitCodeForStatus(e.status), message: oneLine(`${e.message} (${e.code})`) };
  // The server's ConfigError is a usage problem: a bad flag, file or environment value.
  if (e?.name === 'ConfigError' || e?.name === 'PolicyConfigError')
    return { code: EXIT.usage, message: oneLine(e.message ?? 'invalid configuration') };
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === 'SQLITE_CANTOPEN') {
    return { code: EXIT.unreachable, message: oneLine(e.message ?? String(e.code)) };
  }
  return {
    code: EXIT.failure,
    message: oneLine(`unexpected error: ${e?.message ?? String(err)} (set HOOKLINE_DEBUG=1 for the stack)`),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
