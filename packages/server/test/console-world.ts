// What the console's browser test files start once each: a server on a temporary SQLite file, a loopback receiver
// answering what the file says, two tenants (Acme CRM with an API key, Beta Chat) and an endpoint each; and the steps
// they share (sign in, make a delivery fail for good).
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, shot } from './console-browser.ts';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

export interface ConsoleWorld {
  t: TestServer;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** What the receiver answers next (a status code). */
  answer: number;
  a: string;
  b: string;
  keyA: string;
  endpointA: string;
  endpointB: string;
}

/** Registers the file's before/after hooks; the world's fields are set once `before` has run (not without Chromium). */
export function consoleWorld(): ConsoleWorld {
  const w = { answer: 503 } as ConsoleWorld;
  before(async () => {
    if (chromiumMissing) return;
    w.t = await startTestServer();
    w.receiver = await startReceiver(() => w.answer);
    w.a = await w.t.tenant('Acme CRM');
    w.b = await w.t.tenant('Beta Chat');
    w.keyA = (await w.t.api('POST', `/v1/tenants/${w.a}/api-keys`, { body: { name: 'console' } })).body.key;
    w.endpointA = (
      await w.t.api('POST', `/v1/tenants/${w.a}/endpoints`, {
        body: { url: w.receiver.url, policy: 'strict', description: 'crm-hooks' },
      })
    ).body.id;
    w.endpointB = (
      await w.t.api('POST', `/v1/tenants/${w.b}/endpoints`, {
        body: { url: w.receiver.url, policy: 'strict', description: 'chat-hooks' },
      })
    ).body.id;
  });
  after(async () => {
    await w.t?.close();
    await w.receiver?.close();
  });
  return w;
}

export async function signIn(w: ConsoleWorld, page: Page, token: string): Promise<void> {
  await page.goto(`${w.t.url}/console/`);
  await page.getByLabel('Admin token or tenant API key').fill(token);
  await shot(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A delivery that failed for good at the receiver (strict policy, 4xx/5xx → failed at once). */
export async function failedDelivery(w: ConsoleWorld, tenant: string, eventId: string): Promise<string> {
  w.answer = 400;
  const ev = await w.t.api('POST', `/v1/tenants/${tenant}/events`, {
    body: { event_id: eventId, type: 'order.created', data: { order: eventId } },
  });
  const id = ev.body.deliveries[0].id as string;
  await until(
    () => w.t.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`),
    (r) => r.body.status === 'failed',
  );
  return id;
}
