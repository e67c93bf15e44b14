// `hookline serve`: the HTTP API and the delivery workers in one process, until SIGINT/SIGTERM.

import { note, whenInterrupted } from '../cli-context.ts';
import { CliError, EXIT } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { redactDb, SERVER_OPTIONS, SERVER_OPTIONS_HELP, serverConfig } from '../server-options.ts';

export const serve: Command = {
  name: 'serve',
  summary: 'run the HTTP API and the delivery workers',
  help: `Usage:
  hookline serve [--port 8080] [--host 127.0.0.1] [--db ./hookline.db | postgres://…] [--config hookline.json]
                 [--role api|worker|all] [--allow-http] [--allow-private-targets] [--log-format auto|json|pretty]

Settings come from defaults, then the --config file, then HOOKLINE_* variables, then these flags.
The first start prints a generated admin token once; keep it (HOOKLINE_TOKEN for the client commands).
Ctrl-C or SIGTERM stops taking requests, lets attempts in flight finish and closes the database.
If the store fails for good (a failed fsync, a dead store thread) it answers 503 for fatalExitDelayMs and exits 5.

${SERVER_OPTIONS_HELP}
  --port <n>                 listen port (0 picks a free one)
  --host <addr>              listen address (0.0.0.0 for every interface)
  --role <api|worker|all>    api: HTTP only; worker: deliveries only; all (default): both
  --settings-epoch <n>       raise it to change a setting every process must share in a rolling deploy
                             (docs/scaling.md#settings-that-must-match; env HOOKLINE_SETTINGS_EPOCH)
  --allow-http               accept plain http:// endpoint URLs (development only)
  --allow-private-targets    accept loopback and private endpoint addresses (development only)
  --log-format <f>           auto (default): readable lines on a terminal, JSON lines otherwise; json or pretty
                             forces one (env HOOKLINE_LOG_FORMAT)

Example:
  hookline serve --db ./hookline.db --port 8080`,

  async run(args, ctx) {
    const { values } = parseCommandArgs('serve', args, {
      ...SERVER_OPTIONS,
      port: { type: 'string' },
      host: { type: 'string' },
      role: { type: 'string' },
      'allow-http': { type: 'boolean' },
      'allow-private-targets': { type: 'boolean' },
      'log-format': { type: 'string' },
      'settings-epoch': { type: 'string' },
    });
    const config = await serverConfig(ctx, values.config, {
      db: values.db,
      port: values.port,
      host: values.host,
      role: values.role,
      allowHttp: values['allow-http'],
      allowPrivateTargets: values['allow-private-targets'],
      logFormat: values['log-format'],
      settingsEpoch: values['settings-epoch'],
    });
    const { startServer } = await import('../../index.ts');
    const { consoleDir } = await import('../../console/console-routes.ts');
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer(config);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new CliError(EXIT.failure, `${config.host}:${config.port} is already in use; choose another --port`);
      if (code === 'EACCES')
        throw new CliError(
          EXIT.failure,
          `not allowed to listen on ${config.host}:${config.port}; choose a port above 1023`,
        );
      if ((err as Error).name === 'DatabaseInUseError') throw new CliError(EXIT.unreachable, (err as Error).message);
      throw err;
    }
    const role =
      config.role === 'all'
        ? 'API and delivery workers'
        : config.role === 'api'
          ? 'API only (no deliveries in this process)'
          : 'delivery workers only (no API in this process; /healthz, /readyz and /metrics answer)';
    note(ctx, `hookline ${role} on ${server.url}`);
    note(ctx, `database  ${redactDb(config.db)}`);
    // The web console comes with the server (docs/console.md); say where, or why it is missing.
    note(ctx, `console   ${consoleDir() === null ? 'not built (npm run build)' : `${server.url}/console/`}`);
    if (config.allowHttp || config.allowPrivateTargets) {
      note(
        ctx,
        `warning   development flags on:${config.allowHttp ? ' --allow-http' : ''}${config.allowPrivateTargets ? ' --allow-private-targets' : ''}`,
      );
    }
    if (server.runtime.adminTokenPlaintext) {
      note(ctx, `admin token (shown once, keep it): ${server.runtime.adminTokenPlaintext}`);
      note(ctx, `  export HOOKLINE_URL=${server.url} HOOKLINE_TOKEN=${server.runtime.adminTokenPlaintext}`);
    }
    const ended = await Promise.race([
      whenInterrupted(ctx).then((signal) => ({ signal })),
      server.fatal.then((error) => ({ error })),
    ]);
    if ('error' in ended) {
      // Nothing more can be acknowledged; the supervisor restarts the process and SQLite recovers from the WAL.
      await Promise.race([server.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
      throw new CliError(EXIT.unreachable, `storage failed for good, exiting for a restart: ${ended.error.message}`);
    }
    note(ctx, `${ended.signal}: finishing attempts in flight and closing (again to force)`);
    await server.close();
    return 0;
  },
};
