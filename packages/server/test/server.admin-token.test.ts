// The admin-token recovery of docs/deploy.md#admin-token: a lost generated token is replaced by setting
// HOOKLINE_ADMIN_TOKEN, the old one is refused from then on, and the new one stays after the variable is removed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { memoryLogger } from '@hookline/core';
import { resolveConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookline-admin-token-'));
const open = new Set<{ close(): Promise<void> }>();
after(async () => {
  // A failed assertion leaves its server running: close it, or the file never ends.
  for (const server of open) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One `serve` on the same database and data directory, as a restart is; `env` as the unit's environment file. */
async function start(env: NodeJS.ProcessEnv) {
  const config = resolveConfig({
    env,
    argv: { port: 0, host: '127.0.0.1', db: join(dir, 'hookline.db'), dataDir: join(dir, 'data') },
  });
  const logger = memoryLogger();
  const server = await startServer(config, { logger });
  open.add(server);
  const close = async () => {
    open.delete(server);
    await server.close();
  };
  const status = async (token: string) =>
    (await fetch(`${server.url}/v1/tenants`, { headers: { authorization: `Bearer ${token}` } })).status;
  return { server, status, close, logs: logger.lines };
}

test('a lost admin token: set HOOKLINE_ADMIN_TOKEN and restart; the old token is refused, the new one stays', async () => {
  const first = await start({});
  const lost = first.server.runtime.adminTokenPlaintext;
  assert.ok(lost, 'the first start generated and printed a token');
  assert.equal(await first.status(lost), 200);
  await first.close();

  const replacement = 'recovered-admin-token-0123456789';
  const second = await start({ HOOKLINE_ADMIN_TOKEN: replacement });
  assert.equal(second.server.runtime.adminTokenPlaintext, undefined, 'nothing generated or printed');
  assert.deepEqual([await second.status(replacement), await second.status(lost)], [200, 401]);
  // Said once, at the start that replaced it.
  const said = (logs: Array<{ msg?: string }>) => logs.filter((l) => /replaced the stored one/.test(String(l.msg)));
  assert.equal(said(second.logs).length, 1, JSON.stringify(second.logs));
  await second.close();

  // The variable removed again: the replacement is still the admin token, and the lost one does not come back.
  const third = await start({});
  assert.equal(third.server.runtime.adminTokenPlaintext, undefined);
  assert.deepEqual([await third.status(replacement), await third.status(lost)], [200, 401]);
  assert.equal(said(third.logs).length, 0);
  await third.close();
});
