// The maintenance step that tells a tenant its endpoint's client certificate expires soon: one
// `endpoint.certificate_expiring` notice per certificate, 14 days ahead (docs/rules.md#client-certificate).
import { DEFAULTS } from '../defaults.ts';
import { newId } from '../ids.ts';
import type { EndpointEgressStore } from '../store/store.ts';

export const CERTIFICATE_EXPIRING = 'endpoint.certificate_expiring';
/** Certificates told per pass at most; the next pass takes the rest. */
const BATCH = 100;

/** Notices written this pass. Each is written with its mark in one transaction, so concurrent workers tell it once. */
export async function noticeExpiringCertificates(
  store: Pick<EndpointEgressStore, 'listExpiringCertificates' | 'markCertificateNotified'>,
  now: number,
  aheadMs: number = DEFAULTS.notifications.certificateExpiryMs,
): Promise<number> {
  let told = 0;
  for (const c of await store.listExpiringCertificates(now + aheadMs, BATCH)) {
    const expires = new Date(c.expiresAt).toISOString();
    const notice = {
      id: newId('ntc', now),
      tenantId: c.tenantId,
      kind: CERTIFICATE_EXPIRING,
      subjectId: c.endpointId,
      message: `the client certificate of endpoint ${c.endpointId} (${c.subject}) expires ${expires}: upload a new one`,
      data: { endpoint_id: c.endpointId, subject: c.subject, expires_at: expires },
      createdAt: now,
    };
    if (await store.markCertificateNotified(c.endpointId, c.expiresAt, notice)) told++;
  }
  return told;
}
