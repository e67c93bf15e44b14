// Starts a Hookline process: runtime, app, listen; the dispatcher runs in roles `all` and `worker`.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { HooklineConfig } from './config.ts';
import { openRuntime, type Runtime, type RuntimeOverrides } from './runtime.ts';

export interface RunningServer {
  app: FastifyInstance;
  runtime: Runtime;
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** Graceful: stops taking requests, lets in-flight ones and attempts finish, closes the store. */
  close(): Promise<void>;
  /**
   * Resolves if the store fails for good, once the process has answered 503 for `fatalExitDelayMs`: the caller
   * (`hookline serve`) then closes and exits non-zero for its supervisor to restart it.
   */
  readonly fatal: Promise<Error>;
}

export async function startServer(config: HooklineConfig, overrides: RuntimeOverrides = {}): Promise<RunningServer> {
  const runtime = await openRuntime(config, overrides);
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(runtime);
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app?.close().catch(() => {});
    await runtime.close();
    throw err;
  }
  if (config.role !== 'api') runtime.engine.start();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${port}`;
  runtime.logger.log('info', 'hookline listening', {
    url,
    role: config.role,
    db: config.db.replace(/\/\/[^@]*@/, '//***@'),
  });
  let closing: Promise<void> | null = null;
  const fatal = new Promise<Error>((resolve) =>
    runtime.onFatal((err) => setTimeout(() => resolve(err), config.fatalExitDelayMs).unref()),
  );
  return {
    app,
    runtime,
    url,
    fatal,
    close() {
      closing ??= (async () => {
        await app.close();
        await runtime.close();
      })();
      return closing;
    },
  };
}
