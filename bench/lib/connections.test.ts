import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Pool } from 'undici';
import { connectionsOpened, openSockets } from './connections.ts';

test('connections opened are counted until stop(); open sockets include them', {
  skip: !existsSync('/proc/self/fd') && 'not Linux',
}, async () => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 3 });
  try {
    const before = openSockets()!;
    const opened = connectionsOpened();
    // Three at once on a pool of three: three connections, each a socket at both ends (both in this process).
    await Promise.all(
      Array.from({ length: 3 }, () => pool.request({ path: '/', method: 'GET' }).then((r) => r.body.text())),
    );
    assert.equal(opened.stop(), 3);
    assert.ok(openSockets()! >= before + 6, `${before} → ${openSockets()}`);
    // Stopped: later connections are not counted.
    await pool.close();
    const again = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await again.request({ path: '/', method: 'GET' }).then((r) => r.body.text());
    await again.close();
    assert.equal(opened.stop(), 3);
  } finally {
    server.close();
  }
});
