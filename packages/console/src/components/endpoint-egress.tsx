// An endpoint's way out (docs/rules.md#egress-proxy): its proxy choice, its client certificate (PEM, never shown again
// after upload: the page shows the subject and the expiry) and its OAuth2 client (the secret is never shown either).
import type { components } from '@hookline/client';
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';

type Endpoint = components['schemas']['Endpoint'];
export type EgressPatch = Pick<
  components['schemas']['UpdateEndpointRequest'],
  'proxy' | 'client_certificate' | 'oauth2'
>;

/** A certificate is flagged this long before it expires, as the expiry notice is (docs/rules.md#client-certificate). */
const SOON_MS = 14 * 86_400_000;

export function Egress({ endpoint: e, onSave }: { endpoint: Endpoint; onSave: (body: EgressPatch) => Promise<void> }) {
  const [v, setV] = useState({
    proxy: e.proxy ?? '',
    certificate: '',
    key: '',
    removeCertificate: false,
    tokenUrl: e.oauth2?.token_url ?? '',
    clientId: e.oauth2?.client_id ?? '',
    clientSecret: '',
    scope: e.oauth2?.scope ?? '',
    audience: e.oauth2?.audience ?? '',
  });
  const [invalid, setInvalid] = useState<string | null>(null);
  const set = (k: keyof typeof v) => (ev: { target: { value: string } }) => setV({ ...v, [k]: ev.target.value });
  const cert = e.client_certificate;
  const expiresSoon = cert ? Date.parse(cert.expires_at) - Date.now() < SOON_MS : false;

  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const body: EgressPatch = { proxy: v.proxy.trim() === '' ? null : v.proxy.trim() };
    const pemGiven = v.certificate.trim() !== '' || v.key.trim() !== '';
    if (v.removeCertificate) body.client_certificate = null;
    else if (pemGiven) {
      if (v.certificate.trim() === '' || v.key.trim() === '') {
        setInvalid('Client certificate: paste both the certificate and its private key (PEM)');
        return;
      }
      body.client_certificate = { certificate: v.certificate, key: v.key };
    }
    if (v.tokenUrl.trim() === '') {
      if (e.oauth2) body.oauth2 = null;
    } else {
      if (v.clientId.trim() === '') {
        setInvalid('OAuth2: give the client id with the token URL');
        return;
      }
      body.oauth2 = {
        token_url: v.tokenUrl.trim(),
        client_id: v.clientId.trim(),
        scope: v.scope.trim() || null,
        audience: v.audience.trim() || null,
        ...(v.clientSecret === '' ? {} : { client_secret: v.clientSecret }),
      };
    }
    setInvalid(null);
    void onSave(body);
  };

  return (
    <form onSubmit={submit} className="stack" aria-label="Way out">
      <label htmlFor="egress-proxy">Proxy</label>
      <input id="egress-proxy" name="proxy" aria-describedby="proxy-help" value={v.proxy} onChange={set('proxy')} />
      <p id="proxy-help" className="help">
        Empty: the server&apos;s egress proxy, if it has one. <code>none</code>: direct. Or the name of a proxy the
        server configures under <code>egress.proxies</code>.
      </p>

      <h3>Client certificate</h3>
      <p id="certificate-now">
        {cert ? (
          <>
            {cert.subject}, expires {new Date(cert.expires_at).toLocaleString()}
            {expiresSoon ? <strong className="error"> — expires within 14 days: upload a new one</strong> : null}
          </>
        ) : (
          'None: attempts present no client certificate.'
        )}
      </p>
      <label htmlFor="egress-certificate">Certificate (PEM)</label>
      <textarea
        id="egress-certificate"
        name="certificate"
        rows={3}
        spellCheck={false}
        value={v.certificate}
        onChange={set('certificate')}
      />
      <label htmlFor="egress-key">Private key (PEM)</label>
      <textarea
        id="egress-key"
        name="key"
        rows={3}
        spellCheck={false}
        aria-describedby="key-help"
        value={v.key}
        onChange={set('key')}
      />
      <p id="key-help" className="help">
        Sealed with the master key and never shown again. Leave both empty to keep the current certificate.
      </p>
      {cert ? (
        <label>
          <input
            type="checkbox"
            name="remove_certificate"
            checked={v.removeCertificate}
            onChange={(ev) => setV({ ...v, removeCertificate: ev.target.checked })}
          />{' '}
          Remove the client certificate
        </label>
      ) : null}

      <h3>OAuth2 client credentials</h3>
      <label htmlFor="egress-token-url">Token URL</label>
      <input
        id="egress-token-url"
        name="token_url"
        type="url"
        aria-describedby="token-help"
        value={v.tokenUrl}
        onChange={set('tokenUrl')}
      />
      <p id="token-help" className="help">
        Each attempt carries a Bearer token from here (client credentials). Empty: no token.
      </p>
      <label htmlFor="egress-client-id">Client id</label>
      <input id="egress-client-id" name="client_id" value={v.clientId} onChange={set('clientId')} />
      <label htmlFor="egress-client-secret">Client secret</label>
      <input
        id="egress-client-secret"
        name="client_secret"
        type="password"
        autoComplete="off"
        aria-describedby="secret-help"
        value={v.clientSecret}
        onChange={set('clientSecret')}
      />
      <p id="secret-help" className="help">
        {e.oauth2?.has_secret
          ? 'A secret is stored (never shown); leave empty to keep it.'
          : 'Sealed, never shown again.'}
      </p>
      <label htmlFor="egress-scope">Scope</label>
      <input id="egress-scope" name="scope" value={v.scope} onChange={set('scope')} />
      <label htmlFor="egress-audience">Audience</label>
      <input id="egress-audience" name="audience" value={v.audience} onChange={set('audience')} />
      {invalid ? (
        <p id="egress-invalid" role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      <div>
        <Button type="submit">Save way out</Button>
      </div>
    </form>
  );
}
