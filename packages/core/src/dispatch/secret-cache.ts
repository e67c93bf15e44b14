// Decrypted signing secrets per endpoint version, so the hot path neither queries nor decrypts per attempt.
import type { SecretBox } from '../secret-box.ts';
import type { CatalogStore } from '../store/store.ts';

interface Live {
  kid: string;
  secret: string;
  expiresAt: number | null;
}

/**
 * Newest secret first. Kids sort by creation time even within one millisecond (ids.ts), so they break the tie of a
 * rotation made in the same millisecond as the secret it replaces: the current secret is never listed second.
 */
export function newestFirst(a: { createdAt: number; kid: string }, b: { createdAt: number; kid: string }): number {
  return b.createdAt - a.createdAt || (a.kid < b.kid ? 1 : a.kid > b.kid ? -1 : 0);
}

export class SecretCache {
  readonly #entries = new Map<string, { version: number; secrets: Live[] }>();
  constructor(
    private readonly store: Pick<CatalogStore, 'listSecrets'>,
    private readonly box: SecretBox,
  ) {}

  /** Every secret live at `now`, newest first; reloaded when the endpoint's version moves (rotation bumps it). */
  async live(endpointId: string, version: number, now: number): Promise<Array<{ kid: string; secret: string }>> {
    let entry = this.#entries.get(endpointId);
    if (!entry || entry.version !== version) {
      const sealed = await this.store.listSecrets(endpointId);
      const secrets = sealed
        .map((s) => ({
          kid: s.kid,
          secret: this.box.open(s.sealed, endpointId),
          expiresAt: s.expiresAt,
          createdAt: s.createdAt,
        }))
        .sort(newestFirst)
        .map(({ kid, secret, expiresAt }) => ({ kid, secret, expiresAt }));
      entry = { version, secrets };
      this.#entries.set(endpointId, entry);
    }
    return entry.secrets
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .map(({ kid, secret }) => ({ kid, secret }));
  }

  forget(endpointId: string): void {
    this.#entries.delete(endpointId);
  }
}
