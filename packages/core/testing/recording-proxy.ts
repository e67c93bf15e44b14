// An in-test forward proxy on loopback that records what it was asked: CONNECT tunnels for https, absolute-form
// requests for http; it can demand Basic credentials or refuse. It only ever connects onwards to 127.0.0.1 / ::1.
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';

export interface ProxyAsk {
  /** `CONNECT` or the forwarded method. */
  readonly method: string;
  /** The CONNECT authority or the absolute URL, as the proxy received it. */
  readonly target: string;
  readonly host: string | undefined;
  readonly proxyAuthorization: string | undefined;
}

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>` (with credentials when given `auth`, ready for the egress config). */
  readonly url: string;
  readonly port: number;
  readonly asks: ProxyAsk[];
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /** `user:pass` the proxy demands (407 otherwise); the returned url carries them. */
  readonly auth?: string;
  /** Answer every ask with this status instead of forwarding (e.g. 403). */
  readonly refuseWith?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function splitAuthority(authority: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
  return m ? { host: m[1], port: Number(m[2]) } : { host: authority, port: 443 };
}

export async function startRecordingProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const asks: ProxyAsk[] = [];
  const sockets = new Set<Socket>();
  const expected = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : undefined;
  const verdict = (req: IncomingMessage): number | null => {
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) return 407;
    return options.refuseWith ?? null;
  };
  const record = (req: IncomingMessage) =>
    asks.push({
      method: req.method ?? '',
      target: req.url ?? '',
      host: req.headers.host,
      proxyAuthorization: req.headers['proxy-authorization'],
    });
  const server = createServer((req, res) => {
    record(req);
    const status = verdict(req);
    if (status !== null) return void res.writeHead(status, { connection: 'close' }).end();
    const url = new URL(req.url ?? '/');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!LOOPBACK.has(host)) return void res.writeHead(403).end('only loopback');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const onward = httpRequest(
      { host, port: Number(url.port || 80), method: req.method, path: url.pathname + url.search, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.writeHead(502).end());
    req.pipe(onward);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    record(req);
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => {});
    const status = verdict(req);
    const { host, port } = splitAuthority(req.url ?? '');
    if (status !== null || !LOOPBACK.has(host)) {
      client.end(`HTTP/1.1 ${status ?? 403} Refused\r\nConnection: close\r\n\r\n`);
      return;
    }
    const upstream = netConnect({ host, port });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.auth ? `${options.auth}@` : ''}127.0.0.1:${port}`,
    port,
    asks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
