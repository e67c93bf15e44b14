// Decides whether a PostgreSQL/Redis-backed test runs: loud failure in CI, a clear skip elsewhere.
import { connect } from 'node:net';

/**
 * Resolves `false` (run the tests) when the port accepts a connection, or a skip reason.
 * With CI=true a dead service throws instead, so a broken pipeline cannot pass by skipping.
 *
 * @example
 * const skip = await skipUnlessReachable('postgres', '127.0.0.1', 5432);
 */
export async function skipUnlessReachable(service: string, host: string, port: number): Promise<string | false> {
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    function finish(ok: boolean) {
      socket.destroy();
      resolve(ok);
    }
  });
  if (reachable) return false;
  const reason = `${service} not reachable at ${host}:${port}`;
  if (process.env.CI === 'true') throw new Error(`${reason} (CI=true: service-backed tests must run)`);
  return reason;
}
