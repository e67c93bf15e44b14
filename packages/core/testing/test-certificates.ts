// Certificates for TLS tests, made with the openssl CLI in a temp dir: a self-signed server certificate for the given
// names and addresses. Under CI openssl is installed by scripts/services.sh; elsewhere tests skip without it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const haveOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface ServerCertificate {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** A one-day self-signed EC certificate whose subjectAltName lists `names` (host names and IP literals). */
export function selfSignedCertificate(names: readonly string[]): ServerCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-cert-'));
  try {
    const san = names.map((n) => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${san}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TestCa {
  /** The CA certificate (PEM): trust it on the other side. */
  readonly cert: Buffer;
  /** A certificate the CA signed: `server` for a TLS server (names in subjectAltName), `client` for mTLS. */
  issue(
    commonName: string,
    o?: { names?: readonly string[]; usage?: 'server' | 'client'; days?: number },
  ): ServerCertificate;
  /** Removes the CA's temp dir; tests call it in `after`. */
  remove(): void;
}

/** A one-off certificate authority in a temp dir (openssl), for servers that require client certificates. */
export function testCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(['req', '-x509', ...ec, '-days', '2', '-subj', '/CN=Hookline Test CA', '-keyout', 'ca.key', '-out', 'ca.pem']);
  let n = 0;
  return {
    cert: readFileSync(join(dir, 'ca.pem')),
    issue(commonName, o = {}) {
      const id = `leaf${++n}`;
      const names = o.names ?? [];
      const ext = [
        o.usage === 'client' ? 'extendedKeyUsage=clientAuth' : 'extendedKeyUsage=serverAuth',
        ...(names.length > 0
          ? [`subjectAltName=${names.map((x) => (isIP(x) ? `IP:${x}` : `DNS:${x}`)).join(',')}`]
          : []),
      ];
      writeFileSync(join(dir, `${id}.ext`), `${ext.join('\n')}\n`);
      run(['req', ...ec, '-subj', `/CN=${commonName}`, '-keyout', `${id}.key`, '-out', `${id}.csr`]);
      run([
        'x509',
        '-req',
        '-in',
        `${id}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        String(o.days ?? 1),
        '-extfile',
        `${id}.ext`,
        '-out',
        `${id}.pem`,
      ]);
      return { key: readFileSync(join(dir, `${id}.key`)), cert: readFileSync(join(dir, `${id}.pem`)) };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
