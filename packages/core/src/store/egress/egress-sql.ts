// The egress part's SQL: an endpoint's way out (proxy choice, client certificate, OAuth2 client), and the
// certificates about to expire.

import { noticeToRow } from '../outbox/outbox-rows.ts';
import type { Notice } from '../outbox/outbox-store.ts';
import type { StoreScope } from '../store-scope.ts';
import type { EndpointEgress, ExpiringCertificate } from './egress-store.ts';

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function fromRow(r: Row): EndpointEgress {
  const oauth2 = r.oauth2 ? (JSON.parse(String(r.oauth2)) as Record<string, string | null>) : null;
  return {
    endpointId: String(r.endpoint_id),
    proxy: strOrNull(r.proxy),
    certificate:
      r.certificate_pem == null
        ? null
        : {
            pem: String(r.certificate_pem),
            keySealed: String(r.certificate_key_sealed),
            subject: String(r.certificate_subject ?? ''),
            expiresAt: Number(r.certificate_expires_at),
            notifiedAt: num(r.certificate_notified_at),
          },
    oauth2:
      oauth2 === null
        ? null
        : {
            tokenUrl: String(oauth2.token_url),
            clientId: String(oauth2.client_id),
            scope: oauth2.scope ?? null,
            audience: oauth2.audience ?? null,
            secretSealed: String(r.oauth2_secret_sealed),
          },
    updatedAt: Number(r.updated_at),
  };
}

function toRow(e: EndpointEgress): Row {
  const c = e.certificate;
  const o = e.oauth2;
  return {
    endpoint_id: e.endpointId,
    proxy: e.proxy,
    certificate_pem: c?.pem ?? null,
    certificate_key_sealed: c?.keySealed ?? null,
    certificate_subject: c?.subject ?? null,
    certificate_expires_at: c?.expiresAt ?? null,
    certificate_notified_at: c?.notifiedAt ?? null,
    oauth2: o
      ? JSON.stringify({ token_url: o.tokenUrl, client_id: o.clientId, scope: o.scope, audience: o.audience })
      : null,
    oauth2_secret_sealed: o?.secretSealed ?? null,
    updated_at: e.updatedAt,
  };
}

export async function getEndpointEgress({ db }: StoreScope, endpointId: string): Promise<EndpointEgress | null> {
  const [r] = await db.all('get-endpoint-egress', { endpoint_id: endpointId });
  return r ? fromRow(r) : null;
}

export function setEndpointEgress(
  { db }: StoreScope,
  endpointId: string,
  egress: EndpointEgress | null,
  now: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The version moves first: it also locks the endpoint row (PostgreSQL) and says whether the endpoint exists.
    if ((await tx.run('bump-endpoint-version', { id: endpointId, now })) === 0) return false;
    const empty = egress === null || (egress.proxy === null && egress.certificate === null && egress.oauth2 === null);
    if (empty) await tx.run('delete-endpoint-egress', { endpoint_id: endpointId });
    else await tx.run('put-endpoint-egress', toRow({ ...egress, endpointId }));
    return true;
  });
}

export async function listExpiringCertificates(
  { db }: StoreScope,
  before: number,
  limit: number,
): Promise<ExpiringCertificate[]> {
  return (await db.all('expiring-certificates', { before, limit })).map((r) => ({
    endpointId: String(r.endpoint_id),
    tenantId: String(r.tenant_id),
    subject: String(r.certificate_subject ?? ''),
    expiresAt: Number(r.certificate_expires_at),
  }));
}

export function markCertificateNotified(
  { db }: StoreScope,
  endpointId: string,
  expiresAt: number,
  notice: Omit<Notice, 'environment' | 'resolvedAt'>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const marked = await tx.run('mark-certificate-notified', {
      endpoint_id: endpointId,
      expires_at: expiresAt,
      now: notice.createdAt,
    });
    if (marked === 0) return false;
    await tx.run('insert-notice', noticeToRow({ ...notice, resolvedAt: null }));
    return true;
  });
}
