// The endpoint-egress part of the store: an endpoint's proxy choice, client certificate and OAuth2 client
// (docs/rules.md#egress-proxy); the private key and the client secret arrive and stay sealed under the master key.
import type { Notice } from '../outbox/outbox-store.ts';

/** A client certificate as stored: the PEM chain, its key sealed, what the API shows of it. */
export interface StoredClientCertificate {
  pem: string;
  keySealed: string;
  subject: string;
  expiresAt: number;
  /** When the expiry notice was written; null until then (a new certificate starts over). */
  notifiedAt: number | null;
}

/** OAuth2 client credentials as stored: the secret sealed. */
export interface StoredOAuth2 {
  tokenUrl: string;
  clientId: string;
  scope: string | null;
  audience: string | null;
  secretSealed: string;
}

export interface EndpointEgress {
  endpointId: string;
  /** null: the configuration's proxy; `none`: direct; else a name under egress.proxies. */
  proxy: string | null;
  certificate: StoredClientCertificate | null;
  oauth2: StoredOAuth2 | null;
  updatedAt: number;
}

/** A certificate the expiry notice is due for. */
export interface ExpiringCertificate {
  endpointId: string;
  tenantId: string;
  subject: string;
  expiresAt: number;
}

export interface EndpointEgressStore {
  /** null when the endpoint has no proxy choice, certificate or OAuth2 client. */
  getEndpointEgress(endpointId: string): Promise<EndpointEgress | null>;
  /**
   * Replaces the endpoint's egress row (null, or one with nothing set, removes it) and moves the endpoint's version,
   * so workers reload it. False when the endpoint does not exist.
   */
  setEndpointEgress(endpointId: string, egress: EndpointEgress | null, now: number): Promise<boolean>;
  /** Certificates expiring before `before` whose notice is not written, soonest first. */
  listExpiringCertificates(before: number, limit: number): Promise<ExpiringCertificate[]>;
  /**
   * In one transaction: marks the certificate that expires at `expiresAt` as told, and records `notice`; false (and
   * no notice) when it was replaced or already told, so several workers tell it once.
   */
  markCertificateNotified(
    endpointId: string,
    expiresAt: number,
    notice: Omit<Notice, 'environment' | 'resolvedAt'>,
  ): Promise<boolean>;
}
