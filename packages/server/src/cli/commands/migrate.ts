// `hookline migrate`: brings the database schema up to date (numbered, forward-only migrations) and exits.
import { isPostgresUrl, openSqliteStore, type Store } from '@hookline/core';
import { DatabaseInUseError, openWithOwnerLock } from '../../sqlite-owner-lock.ts';
import { out } from '../cli-context.ts';
import { CliError, EXIT } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { redactDb, SERVER_OPTIONS, SERVER_OPTIONS_HELP, serverConfig } from '../server-options.ts';

export const migrate: Command = {
  name: 'migrate',
  summary: 'create or upgrade the database schema',
  help: `Usage:
  hookline migrate [--db ./hookline.db | postgres://…] [--config hookline.json]

Applies the migrations the database has not seen yet; safe to run again. 'hookline serve' migrates at
start too; run this first when several processes share one PostgreSQL database.

${SERVER_OPTIONS_HELP}

Example:
  hookline migrate --db postgres://hookline@127.0.0.1:5432/hookline`,

  async run(args, ctx) {
    const { values } = parseCommandArgs('migrate', args, SERVER_OPTIONS);
    const config = await serverConfig(ctx, values.config, { db: values.db });
    const store = await openStore(config.db);
    try {
      await store.migrate();
      if (!(await store.ping()))
        throw new CliError(EXIT.unreachable, `database ${redactDb(config.db)} does not answer`);
    } finally {
      await store.close();
    }
    out(ctx, `database ${redactDb(config.db)} (${store.dialect}) is up to date`);
    return 0;
  },
};

async function openStore(db: string): Promise<Store> {
  try {
    if (isPostgresUrl(db)) {
      const core = (await import('@hookline/core')) as unknown as Record<string, unknown>;
      const open = core.openPostgresStore as ((url: string) => Promise<Store>) | undefined;
      if (typeof open !== 'function') throw new CliError(EXIT.failure, 'this build has no PostgreSQL store');
      return await open(db);
    }
    // A running `serve` owns the file; migrating under it is refused (it migrates at start anyway).
    return await openWithOwnerLock(db, openSqliteStore);
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof DatabaseInUseError) throw new CliError(EXIT.unreachable, err.message);
    // The store cannot be opened: a wrong path, a server that is down, credentials refused.
    throw new CliError(
      EXIT.unreachable,
      `cannot open database ${redactDb(db)}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}
