// Test fixtures for server tests: a real server on 127.0.0.1:0 over a temp SQLite file, a JSON client, the tenant fixture
// (srv.tenant(): tenants are created through the API).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, type DeliverySender, type LookupAll, memoryLogger } from '@hookline/core';
import { resolveConfig } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/server.ts';

// The shared loopback receiver and waits (packages/core/testing), re-exported so server tests import from one place.
export { type Received, startReceiver, type TestReceiver, until, within } from '@hookline/core/testing';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  server: RunningServer;
  url: string;
  dir: string;
  logs: ReturnType<typeof memoryLogger>['lines'];
  /** JSON request; `token` defaults to the admin token, null sends none. */
  api<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string | Buffer },
  ): Promise<ApiResponse<T>>;
  /** Creates a tenant and returns its id. */
  tenant(name?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    config?: Record<string, unknown>;
    env?: NodeJS.ProcessEnv;
    clock?: Clock;
    lookup?: LookupAll;
    /** Replaces the engine's sender (e.g. one that trusts a test CA). */
    sender?: DeliverySender;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-server-test-'));
  const config = resolveConfig({
    env: options.env ?? {},
    argv: {
      port: 0,
      host: '127.0.0.1',
      db: join(dir, 'hookline.db'),
      dataDir: join(dir, 'data'),
      allowHttp: true,
      allowPrivateTargets: true,
      adminToken: ADMIN_TOKEN,
      ...options.config,
    },
  });
  const logger = memoryLogger();
  const server = await startServer(config, {
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.sender ? { sender: options.sender } : {}),
  });
  const api: TestServer['api'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? ADMIN_TOKEN : o.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(server.url + path, {
      method,
      headers,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text.length) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as any };
  };
  return {
    server,
    url: server.url,
    dir,
    logs: logger.lines,
    api,
    async tenant(name = 'Acme') {
      const r = await api('POST', '/v1/tenants', { body: { name, owner_emails: ['ops@acme.test'] } });
      if (r.status !== 201) throw new Error(`tenant create failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.id as string;
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
