// An endpoint's way out as the sender takes it (proxy choice, client certificate, OAuth2 client), opened once per
// endpoint version: the hot path neither queries nor decrypts per attempt (docs/rules.md#egress-proxy).

import type { OAuth2Client } from '../http/oauth2-client.ts';
import type { ClientCertificate } from '../http/send-types.ts';
import type { SecretBox } from '../secret-box.ts';
import type { EndpointEgressStore } from '../store/store.ts';

/** The sealing context of each sealed value: a value sealed for one endpoint and purpose opens for no other. */
export const clientKeyAad = (endpointId: string) => `${endpointId}:client-certificate-key`;
export const oauth2SecretAad = (endpointId: string) => `${endpointId}:oauth2-client-secret`;

/** What an attempt adds to its request; empty for an endpoint without egress settings. */
export interface AttemptEgress {
  proxy?: string;
  clientCertificate?: ClientCertificate;
  oauth2?: OAuth2Client;
}

const NONE: AttemptEgress = Object.freeze({});

export class EgressCache {
  readonly #entries = new Map<string, { version: number; egress: AttemptEgress }>();
  constructor(
    private readonly store: Pick<EndpointEgressStore, 'getEndpointEgress'>,
    private readonly box: SecretBox,
  ) {}

  /** The endpoint's egress at `version`; reloaded when the version moves (every egress change moves it). */
  async of(endpointId: string, version: number): Promise<AttemptEgress> {
    const entry = this.#entries.get(endpointId);
    if (entry !== undefined && entry.version === version) return entry.egress;
    const row = await this.store.getEndpointEgress(endpointId);
    let egress = NONE;
    if (row !== null) {
      const out: AttemptEgress = {};
      if (row.proxy !== null) out.proxy = row.proxy;
      // The version names the settings: a new certificate gets a new pool, new OAuth2 settings a new token.
      const id = `${endpointId} v${version}`;
      if (row.certificate !== null)
        out.clientCertificate = {
          id,
          cert: row.certificate.pem,
          key: this.box.open(row.certificate.keySealed, clientKeyAad(endpointId)),
        };
      if (row.oauth2 !== null)
        out.oauth2 = {
          id,
          tokenUrl: row.oauth2.tokenUrl,
          clientId: row.oauth2.clientId,
          clientSecret: this.box.open(row.oauth2.secretSealed, oauth2SecretAad(endpointId)),
          scope: row.oauth2.scope,
          audience: row.oauth2.audience,
        };
      egress = out;
    }
    this.#entries.set(endpointId, { version, egress });
    return egress;
  }

  forget(endpointId: string): void {
    this.#entries.delete(endpointId);
  }
}
