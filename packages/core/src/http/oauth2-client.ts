// An endpoint's OAuth2 client-credentials settings as the sender uses them (docs/rules.md#oauth2).

/** What the sender needs to get a token; `id` names the endpoint and its settings version (the cache key). */
export interface OAuth2Client {
  readonly id: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string | null;
  readonly audience?: string | null;
}
