// An endpoint's way out, as the API sets and shows it (docs/rules.md#egress-proxy, docs/rules.md#client-certificate,
// docs/rules.md#oauth2): the proxy choice, the client certificate and the OAuth2 client. The private key and the
// client secret are sealed here and never shown again; the view says only that they are there.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { clientKeyAad, oauth2SecretAad } from '../dispatch/egress-cache.ts';
import type { EndpointEgressSummary } from '../domain.ts';
import { fail } from '../errors.ts';
import { checkEndpointUrl } from '../http/address-guard.ts';
import type { EndpointEgress } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';

/** The API's fields (create and PATCH): absent leaves a setting as it is, null removes it. */
export interface EndpointEgressInput {
  /** null: the configured proxy; `none`: direct; else a name under egress.proxies. */
  proxy?: string | null;
  /** PEM certificate (chain) and its PEM private key. */
  client_certificate?: { certificate: string; key: string } | null;
  /** Without client_secret, an endpoint that has one keeps it. */
  oauth2?: {
    token_url: string;
    client_id: string;
    client_secret?: string;
    scope?: string | null;
    audience?: string | null;
  } | null;
}

export const NO_EGRESS: EndpointEgressSummary = Object.freeze({ proxy: null, certificate: null, oauth2: null });

const PROXY_CHOICE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const MAX_PEM_BYTES = 64 * 1024;
const MAX_FIELD = 1000;

export function summarize(row: EndpointEgress | null): EndpointEgressSummary {
  if (row === null) return NO_EGRESS;
  return {
    proxy: row.proxy,
    certificate: row.certificate && { subject: row.certificate.subject, expiresAt: row.certificate.expiresAt },
    oauth2: row.oauth2 && {
      tokenUrl: row.oauth2.tokenUrl,
      clientId: row.oauth2.clientId,
      scope: row.oauth2.scope,
      audience: row.oauth2.audience,
      hasSecret: row.oauth2.secretSealed !== '',
    },
  };
}

export const hasEgressInput = (input: EndpointEgressInput): boolean =>
  input.proxy !== undefined || input.client_certificate !== undefined || input.oauth2 !== undefined;

export class EndpointEgressOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** The row `input` makes of `current` (validated, sealed); throws the 400s before anything is written. */
  prepare(endpointId: string, input: EndpointEgressInput, current: EndpointEgress | null, now: number): EndpointEgress {
    const next: EndpointEgress = current
      ? { ...current, updatedAt: now }
      : { endpointId, proxy: null, certificate: null, oauth2: null, updatedAt: now };
    if (input.proxy !== undefined) {
      if (input.proxy !== null && (typeof input.proxy !== 'string' || !PROXY_CHOICE.test(input.proxy)))
        throw fail('proxy_invalid');
      next.proxy = input.proxy === 'default' ? null : input.proxy;
    }
    if (input.client_certificate !== undefined)
      next.certificate =
        input.client_certificate === null ? null : this.#certificate(endpointId, input.client_certificate, now);
    if (input.oauth2 !== undefined)
      next.oauth2 = input.oauth2 === null ? null : this.#oauth2(endpointId, input.oauth2, current);
    return next;
  }

  /** Applies `input` to the endpoint's stored settings; the summary after it. */
  async apply(endpointId: string, input: EndpointEgressInput): Promise<EndpointEgressSummary> {
    const p = this.#p;
    const now = p.clock.now();
    const next = this.prepare(endpointId, input, await p.store.egress.getEndpointEgress(endpointId), now);
    if (!(await p.store.egress.setEndpointEgress(endpointId, next, now))) throw fail('endpoint_not_found');
    return summarize(next);
  }

  async summaryOf(endpointId: string): Promise<EndpointEgressSummary> {
    return summarize(await this.#p.store.egress.getEndpointEgress(endpointId));
  }

  #certificate(endpointId: string, given: { certificate: string; key: string }, now: number) {
    const bad = (detail: string) => fail('client_certificate_invalid', { detail });
    if (typeof given?.certificate !== 'string' || typeof given.key !== 'string')
      throw bad('give certificate and key, both PEM');
    if (given.certificate.length > MAX_PEM_BYTES || given.key.length > MAX_PEM_BYTES) throw bad('PEM over 64 KB');
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(given.certificate);
    } catch {
      throw bad('certificate is not a PEM X.509 certificate');
    }
    let key: ReturnType<typeof createPrivateKey>;
    try {
      key = createPrivateKey(given.key);
    } catch {
      throw bad('key is not an unencrypted PEM private key');
    }
    if (!cert.checkPrivateKey(key)) throw bad('key does not belong to the certificate');
    const expiresAt = Date.parse(cert.validTo);
    if (!(expiresAt > now)) throw bad(`certificate expired ${cert.validTo}`);
    return {
      pem: given.certificate,
      keySealed: this.#p.box.seal(key.export({ type: 'pkcs8', format: 'pem' }).toString(), clientKeyAad(endpointId)),
      subject: cert.subject.replace(/\n/g, ', '),
      expiresAt,
      notifiedAt: null,
    };
  }

  #oauth2(endpointId: string, given: NonNullable<EndpointEgressInput['oauth2']>, current: EndpointEgress | null) {
    const bad = (detail: string) => fail('oauth_client_invalid', { detail });
    const text = (v: unknown, name: string, optional: boolean): string | null => {
      if (optional && (v === undefined || v === null || v === '')) return null;
      if (typeof v !== 'string' || v === '' || v.length > MAX_FIELD)
        throw bad(`${name} must be a string of 1 to ${MAX_FIELD} characters`);
      return v;
    };
    // The token URL passes the endpoint URL rules (docs/rules.md#endpoint-url): the same SSRF guard at registration and
    // again at connect.
    const check = checkEndpointUrl(String(given?.token_url ?? ''), {
      allowHttp: this.#p.settings.allowHttp,
      allowPrivateTargets: this.#p.settings.allowPrivateTargets,
    });
    if (!check.ok) throw bad(`token_url: ${check.code}`);
    const clientId = text(given.client_id, 'client_id', false)!;
    const secret = text(given.client_secret, 'client_secret', true);
    const kept = current?.oauth2?.secretSealed;
    if (secret === null && kept === undefined) throw bad('client_secret is required');
    return {
      tokenUrl: check.url.toString(),
      clientId,
      scope: text(given.scope, 'scope', true),
      audience: text(given.audience, 'audience', true),
      secretSealed: secret === null ? kept! : this.#p.box.seal(secret, oauth2SecretAad(endpointId)),
    };
  }
}
