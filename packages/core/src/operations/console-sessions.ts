// Console sign-in (docs/console.md): single-use portal links (stored as a sha256, consumed atomically) and sessions
// sealed with the master key into the cookie itself (AES-256-GCM via the secret box: unreadable and unforgeable
// without the key), at most 12 hours long, each with its own CSRF token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Actor } from '../audit/audit-types.ts';
import { fail } from '../errors.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

/** A portal link signs in once, within 15 minutes of its creation (docs/console.md#portal-links). */
export const PORTAL_LINK_TTL_MS = 15 * 60_000;
/** No console session outlives 12 hours, however it was opened. */
export const CONSOLE_SESSION_MAX_MS = 12 * 3_600_000;
const SESSION_AAD = 'hookline console session v1';

/** Who a session is: the admin, a tenant through one of its API keys (re-checked on every request), or a portal link's tenant. */
export type ConsoleGrant =
  | { kind: 'admin' }
  | { kind: 'key'; tenantId: string; keyHash: string }
  | { kind: 'portal'; tenantId: string; linkId?: string };

export interface ConsoleSession {
  grant: ConsoleGrant;
  /** Sent back by the console in `x-csrf-token` on every state-changing request. */
  csrf: string;
  expiresAt: number;
  /** For an admin session: a digest of the admin token it was opened with (a changed token ends it). */
  adminTag?: string;
}

function sha256hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A portal link's id in the audit log: its stored hash's first 16 hex digits (the token itself is never kept). */
export function portalLinkId(hash: string): string {
  return hash.slice(0, 16);
}

export class ConsoleSessionOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** A new single-use link token for `tenantId` (404 tenant_not_found); the plaintext is returned once, never stored. */
  async createPortalLink(tenantId: string, actor?: Actor): Promise<{ token: string; expiresAt: number }> {
    if (!(await this.#p.store.catalog.getTenant(tenantId))) throw fail('tenant_not_found');
    const now = this.#p.clock.now();
    const token = `hlp_${randomBytes(32).toString('base64url')}`;
    const expiresAt = now + PORTAL_LINK_TTL_MS;
    const hash = sha256hex(token);
    const target = { type: 'portal_link' as const, id: portalLinkId(hash), tenantId };
    await audited(
      this.#p,
      actor,
      { action: 'portal_link.create', target },
      'createPortalLink',
      { hash, tenantId, createdAt: now, expiresAt },
      now,
    );
    return { token, expiresAt };
  }

  /**
   * The link's tenant and id, marking the link used (audited as the link's own sign-in, `from` the request); 400
   * portal_link_invalid when it is unknown, used or expired.
   */
  async consumePortalLink(
    token: string,
    from: Omit<Actor, 'kind' | 'id'> = {},
  ): Promise<{ tenantId: string; linkId: string }> {
    if (!/^hlp_[A-Za-z0-9_-]{43}$/.test(token)) throw fail('portal_link_invalid');
    const hash = sha256hex(token);
    const linkId = portalLinkId(hash);
    const actor: Actor = { ...from, kind: 'portal_link', id: linkId };
    // The tenant is known only once consumed: the entry names the link, and the store fills the tenant from its row.
    const target = { type: 'portal_link' as const, id: linkId, tenantId: null };
    const tenantId = await audited(
      this.#p,
      actor,
      { action: 'portal_link.use', target },
      'consumePortalLink',
      hash,
      this.#p.clock.now(),
    );
    if (tenantId === null) throw fail('portal_link_invalid');
    return { tenantId, linkId };
  }

  /** Seals a new session for `grant`, valid `ttlMs` (at most 12 h): the cookie value, its CSRF token and its end. */
  openSession(
    grant: ConsoleGrant,
    options: { ttlMs?: number; adminTag?: string } = {},
  ): { cookie: string; session: ConsoleSession } {
    const ttl = Math.min(options.ttlMs ?? CONSOLE_SESSION_MAX_MS, CONSOLE_SESSION_MAX_MS);
    const session: ConsoleSession = {
      grant,
      csrf: randomBytes(24).toString('base64url'),
      expiresAt: this.#p.clock.now() + ttl,
    };
    if (options.adminTag !== undefined) session.adminTag = options.adminTag;
    return { cookie: this.#p.box.seal(JSON.stringify(session), SESSION_AAD), session };
  }

  /** The session a cookie holds, or null when it was not sealed by this master key, is malformed or has expired. */
  readSession(cookie: string): ConsoleSession | null {
    if (cookie.length > 4096) return null;
    let session: ConsoleSession;
    try {
      session = JSON.parse(this.#p.box.open(cookie, SESSION_AAD)) as ConsoleSession;
    } catch {
      return null;
    }
    if (
      typeof session?.expiresAt !== 'number' ||
      session.expiresAt <= this.#p.clock.now() ||
      typeof session.csrf !== 'string'
    )
      return null;
    return session;
  }

  /** Constant-time comparison of a presented CSRF token with the session's. */
  static csrfMatches(session: ConsoleSession, presented: string | undefined): boolean {
    if (typeof presented !== 'string') return false;
    const a = createHash('sha256').update(presented).digest();
    const b = createHash('sha256').update(session.csrf).digest();
    return timingSafeEqual(a, b);
  }
}
