// Debian's tinyproxy as a real forward proxy for a test: its own config in a temp dir, a free loopback port, in the
// foreground (-d) under ownChild so it dies with the test. Only loopback clients are allowed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownChild } from './children.ts';
import { until } from './deadline.ts';

export const TINYPROXY = '/usr/bin/tinyproxy';
export const haveTinyproxy = existsSync(TINYPROXY);

export interface Tinyproxy {
  /** `http://[user:pass@]127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** What tinyproxy logged so far (its Request lines name what it was asked). */
  log(): string;
}

export interface TinyproxyOptions {
  /** `user:pass` the proxy demands (BasicAuth). */
  readonly auth?: string;
  /** Ports CONNECT may reach; none listed: tinyproxy refuses every CONNECT (ConnectPort 1 stands in for none). */
  readonly connectPorts?: readonly number[];
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = netConnect({ host: '127.0.0.1', port });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Starts tinyproxy; `after` is the test's `t.after` (the process and its temp dir go when the test ends). */
export async function startTinyproxy(
  after: (fn: () => void) => void,
  options: TinyproxyOptions = {},
): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-tinyproxy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 30',
    'Allow 127.0.0.1',
    'LogLevel Info',
    'MaxClients 20',
    'DisableViaHeader Yes',
    ...(options.connectPorts?.length ? options.connectPorts.map((p) => `ConnectPort ${p}`) : ['ConnectPort 1']),
  ];
  if (options.auth) {
    const [user, pass] = options.auth.split(':');
    lines.push(`BasicAuth ${user} ${pass}`);
  }
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`);
  const child = ownChild(spawn(TINYPROXY, ['-d', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] }), after);
  let stderr = '';
  const collect = (d: Buffer) => {
    stderr += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await until(
    async () => (child.exitCode !== null ? 'exited' : (await accepts(port)) ? 'up' : null),
    (state) => state !== null,
    { what: `tinyproxy listening on ${port}`, timeoutMs: 10_000 },
  ).then((state) => {
    if (state === 'exited') throw new Error(`tinyproxy exited: ${stderr}`);
  });
  return { url: `http://${options.auth ? `${options.auth}@` : ''}127.0.0.1:${port}`, port, log: () => stderr };
}
