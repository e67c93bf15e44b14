// `hookline backup <file>`: an online copy of the SQLite database, taken while `hookline serve` runs on it.

import { isPostgresUrl } from '@hookline/core/config';
import { note, out } from '../cli-context.ts';
import { CliError, EXIT, usageError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs, requirePositional } from '../parse-args.ts';
import { redactDb, SERVER_OPTIONS, SERVER_OPTIONS_HELP, serverConfig } from '../server-options.ts';

export const backup: Command = {
  name: 'backup',
  summary: 'copy the SQLite database to a new file while the server runs',
  help: `Usage:
  hookline backup <file> [--db ./hookline.db] [--config hookline.json]

Copies the SQLite database to <file> with SQLite's backup API: one consistent snapshot holding every event
answered 202 before the backup began. It runs beside a 'hookline serve' on the same file (it only reads, and takes
no owner lock) or with the server stopped. <file> must not exist; it is written under a temporary name, checked,
fsynced and only then given its name. The master key is not in the copy: keep HOOKLINE_MASTER_KEY (or the data
directory's master.key) with it, or the restored endpoints' secrets cannot be decrypted. On PostgreSQL use pg_dump.
Restore: stop the server, put the copy in place of the database file, start the server with the same master key.

${SERVER_OPTIONS_HELP}

Exit: 0 written; 2 bad arguments, a PostgreSQL --db or a missing directory for <file>; 3 no database at --db;
4 <file> already exists; 5 the database cannot be read; 1 the copy failed (e.g. a full disk; nothing is left behind).

Example:
  hookline backup --db /var/lib/hookline/hookline.db /var/backups/hookline/hookline-$(date +%F).db`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('backup', args, SERVER_OPTIONS, 1);
    const file = requirePositional('backup', 'file', positionals[0]);
    const config = await serverConfig(ctx, values.config, { db: values.db });
    if (isPostgresUrl(config.db))
      throw usageError(
        `backup: ${redactDb(config.db)} is PostgreSQL; back it up with pg_dump or your provider's snapshots (docs/deploy.md)`,
      );
    const { backupSqliteFile, SqliteBackupError } = await import('@hookline/core');
    let result: Awaited<ReturnType<typeof backupSqliteFile>>;
    try {
      result = await backupSqliteFile(config.db, file);
    } catch (err) {
      if (!(err instanceof SqliteBackupError))
        throw new CliError(
          EXIT.failure,
          `backup of ${config.db} failed, nothing was written: ${(err as Error).message}`,
        );
      const code = {
        source_missing: EXIT.notFound,
        source_unreadable: EXIT.unreachable,
        destination_exists: EXIT.refused,
        destination_directory_missing: EXIT.usage,
      }[err.reason];
      throw new CliError(code, `backup: ${err.message}`);
    }
    out(ctx, `backup of ${config.db} written to ${result.path} (${result.pages} pages, ${result.bytes} bytes)`);
    note(
      ctx,
      "the master key is not in the backup: keep HOOKLINE_MASTER_KEY or the data directory's master.key with it",
    );
    return EXIT.ok;
  },
};
