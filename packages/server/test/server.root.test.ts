// The server's root, opened as the banner prints it: a browser is sent to the console, a client told where things are.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestServer } from './server-harness.ts';

const t = await startTestServer();
after(() => t.close());

test('GET / sends a browser to the console and tells anything else where the console and the API description are', async () => {
  const browser = await fetch(`${t.url}/`, { headers: { accept: 'text/html,*/*' }, redirect: 'manual' });
  assert.deepEqual([browser.status, browser.headers.get('location')], [302, '/console/']);
  const client = await t.api('GET', '/', { token: null });
  assert.equal(client.status, 200);
  assert.deepEqual(client.body, {
    name: 'hookline',
    console: '/console/',
    openapi: '/openapi.json',
    health: '/healthz',
  });
  assert.equal((await fetch(`${t.url}${client.body.openapi}`)).status, 200);
});
