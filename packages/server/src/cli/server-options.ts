// Options `serve` and `migrate` share, and the resolved server config built from flags, file and environment.

import type { HooklineConfig } from '../config.ts';
import type { CliContext } from './cli-context.ts';

export const SERVER_OPTIONS = {
  db: { type: 'string' },
  config: { type: 'string' },
} as const;

export const SERVER_OPTIONS_HELP = `Options:
  --db <path | postgres://…>  SQLite file (default ./hookline.db) or PostgreSQL URL (env HOOKLINE_DB)
  --config <file>            JSON config file (env HOOKLINE_CONFIG)`;

/** resolveConfig with the flags given; a bad value throws ConfigError, which main() reports as a usage error. */
export async function serverConfig(
  ctx: CliContext,
  file: string | undefined,
  flags: Record<string, unknown>,
): Promise<HooklineConfig> {
  const { resolveConfig } = await import('../index.ts');
  const argv: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flags)) if (v !== undefined && v !== false) argv[k] = v;
  return resolveConfig({ argv, env: ctx.env as NodeJS.ProcessEnv, ...(file ? { file } : {}) });
}

/** A database URL without its password, for printing. */
export function redactDb(db: string): string {
  return db.replace(/\/\/([^:@/]*):[^@]*@/, '//$1:***@');
}
