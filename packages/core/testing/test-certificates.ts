// Certificates for TLS tests, made with the openssl CLI in a temp dir: a self-signed server certificate for the given
// names and addresses. Under CI openssl is installed by scripts/services.sh; elsewhere tests skip without it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
