// The packages as a user gets them: every publishable package is built and packed (`npm pack`), the tarballs are
// installed into a fresh project with no TypeScript tooling, and there, on the machine's Node and on Node 22 and 24
// (fetched once by scripts/node-binary.sh), `hookline --help` and `npx hookline serve` run on a temporary SQLite file,
// @hookline/receiver is imported from an .mjs and a .cjs file and verifies a signed request (HMAC and Ed25519 v1a), and an event sent to that
// server is delivered to a loopback receiver built on the installed @hookline/receiver, which verifies its signature.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { nativeSqlite, nodeBinary, run, startChild, userEnv } from './fixtures/user-project.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The packages a user installs, in the order they depend on each other. */
const PACKAGES = ['packages/core', 'packages/receiver', 'packages/server', 'packages/client', 'packages/console'];
const work = mkdtempSync(join(tmpdir(), 'hookline-packed-'));
let tarballs: string[] = [];
after(() => rmSync(work, { recursive: true, force: true }));

before(async () => {
  // Every package is built; the console's Vite build (dist/) is what its tarball ships.
  await run(process.execPath, [join(ROOT, 'scripts/build.mjs'), ...PACKAGES], {
    cwd: ROOT,
    env: userEnv(process.execPath),
  });
  const tgz = join(work, 'tarballs');
  mkdirSync(tgz);
  // --ignore-scripts: just built above; prepack would build again.
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', tgz, ...PACKAGES.flatMap((p) => ['-w', p])],
    { cwd: ROOT, env: userEnv(process.execPath) },
  );
  tarballs = (JSON.parse(stdout) as Array<{ filename: string }>).map((p) => join(tgz, p.filename));
  assert.equal(tarballs.length, PACKAGES.length);
});

test('the receiver tarball holds only what users need: compiled ESM + CJS with types, no sources, tests or SQL files', async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', 'packages/receiver'], {
    cwd: ROOT,
    env: userEnv(process.execPath),
  });
  const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
  for (const f of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/cjs/index.js',
    'dist/cjs/index.d.ts',
    'dist/cjs/package.json',
  ]) {
    assert.ok(files.includes(f), `${f} in the tarball`);
  }
  assert.deepEqual(
    files.filter((f) => /(^src\/|\.test\.|\.ts$(?<!\.d\.ts)|\.sql$|test-vectors)/.test(f)),
    [],
  );
  const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/receiver/package.json'), 'utf8'));
  assert.equal(pkg.sideEffects, false);
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'no runtime dependencies');
});

test('every tarball carries the LICENSE (Apache-2.0) and its README where it has one', async () => {
  const { stdout } = await run(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts', ...PACKAGES.flatMap((p) => ['-w', p])],
    { cwd: ROOT, env: userEnv(process.execPath) },
  );
  const packed = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
  assert.equal(packed.length, PACKAGES.length);
  for (const [i, pkg] of packed.entries()) {
    const files = pkg.files.map((f) => f.path);
    assert.ok(files.includes('LICENSE'), `${pkg.name}: LICENSE in the tarball`);
    assert.equal(
      readFileSync(join(ROOT, PACKAGES[i]!, 'LICENSE'), 'utf8'),
      readFileSync(join(ROOT, 'LICENSE'), 'utf8'),
      `${PACKAGES[i]}/LICENSE is the repository's`,
    );
    if (existsSync(join(ROOT, PACKAGES[i]!, 'README.md')))
      assert.ok(files.includes('README.md'), `${pkg.name}: README`);
  }
  // PostgreSQL's functions are applied from their files at every start (store/postgres/migrate.ts).
  const core = packed[PACKAGES.indexOf('packages/core')]!.files.map((f) => f.path);
  const functions = readdirSync(join(ROOT, 'packages/core/src/store/postgres/functions'));
  assert.ok(functions.length > 0);
  for (const f of functions)
    assert.ok(core.includes(`dist/store/postgres/functions/${f}`), `@hookline/core: functions/${f} in the tarball`);
});

test("docs/deploy.md's production pack names exactly the @hookline packages the server needs", () => {
  const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
  const block = /<!-- production-pack[^\n]*\n```sh\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, 'the production-pack block');
  const named = [...block[1]!.matchAll(/-w (packages\/\S+)/g)].map((m) => m[1]!).sort();
  const needed = new Set<string>();
  const visit = (dir: string) => {
    if (needed.has(dir)) return;
    needed.add(dir);
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {}))
      if (dep.startsWith('@hookline/')) visit(`packages/${dep.slice('@hookline/'.length)}`);
  };
  visit('packages/server');
  assert.deepEqual(named, [...needed].sort());
});

// Not the default 120 s per test: on a machine with no cached native module for a Node's ABI, better-sqlite3 is built
// from source when no prebuilt binary can be fetched (a few minutes on 2 cores). Below the file bound (960 s,
// scripts/test.sh), so that this fires first and names the test.
const INSTALL_TIMEOUT_MS = 840_000;

for (const major of ['current', '22', '24']) {
  test(`installed from the tarballs on Node ${major === 'current' ? process.versions.node : major}: hookline serves and delivers, the receiver imports from ESM and CJS`, {
    timeout: INSTALL_TIMEOUT_MS,
  }, async (t) => {
    let nodeBin = process.execPath;
    if (major !== 'current') {
      const found = await nodeBinary(major);
      if ('skip' in found) {
        assert.notEqual(process.env.CI, 'true', found.skip);
        t.diagnostic(found.skip);
        return t.skip(found.skip);
      }
      nodeBin = found.bin;
    }
    const env = userEnv(nodeBin);
    const version = (await run(nodeBin, ['--version'], { cwd: work, env })).stdout.trim();
    t.diagnostic(`node ${version}`);
    const app = mkdtempSync(join(work, `app-${major}-`));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'try-hookline', private: true, version: '1.0.0' }));
    // Their dependencies come from the npm cache (or the registry). Install scripts run below, per Node ABI.
    const installed = await run(
      'npm',
      // --omit=dev as docs/deploy.md's production install says.
      ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...tarballs],
      { cwd: app, env, timeoutMs: 600_000 },
    );
    // Nothing the packages pull in asks for a newer Node than the one installing them (npm warns EBADENGINE).
    assert.doesNotMatch(
      `${installed.stdout}\n${installed.stderr}`,
      /EBADENGINE/,
      `npm install on Node ${version} warned of an unsupported engine`,
    );
    // The production install pulls no dev toolchain: no compiler, bundler, linter, test or browser tooling.
    for (const dev of [
      'typescript',
      'tsx',
      'vite',
      '@biomejs/biome',
      '@stryker-mutator/core',
      'playwright-core',
      'fast-check',
    ])
      assert.ok(!existsSync(join(app, 'node_modules', dev)), `${dev} installed`);
    await nativeSqlite(app, nodeBin, env);

    // hookline --help
    const help = await run('npx', ['--no-install', 'hookline', '--help'], { cwd: app, env, timeoutMs: 60_000 });
    assert.match(help.stdout, /Usage: hookline <command>/);

    // The receiver from ESM and from CommonJS: sign, then verify the same bytes; a changed byte is refused.
    const check = (load: string) => `${load}
const body = JSON.stringify({ type: 'order.created', data: { id: 1 } });
const headers = r.signWebhook({ secrets: 'whsec_packed', id: 'evt_1', body });
const ok = r.verifyWebhook(headers, body, { secrets: 'whsec_packed' });
let refused = false;
try { r.verifyWebhook(headers, body.replace('1', '2'), { secrets: 'whsec_packed' }); } catch (e) { refused = e instanceof r.ReceiverError; }
const { privateKey } = process.getBuiltinModule('node:crypto').generateKeyPairSync('ed25519');
const jwk = privateKey.export({ format: 'jwk' });
const whsk = 'whsk_' + Buffer.concat([Buffer.from(jwk.d, 'base64url'), Buffer.from(jwk.x, 'base64url')]).toString('base64');
const edHeaders = r.signWebhook({ scheme: 'standard', secrets: whsk, id: 'evt_2', body });
const ed = r.verifyWebhook(edHeaders, body, { secrets: 'whpk_' + Buffer.from(jwk.x, 'base64url').toString('base64') });
const v1a = ed.eventId === 'evt_2' && edHeaders['webhook-signature'].startsWith('v1a,');
console.log(JSON.stringify({ scheme: ok.scheme, eventId: ok.eventId, refused, v1a }));`;
    writeFileSync(join(app, 'verify.mjs'), check(`import * as r from '@hookline/receiver';`));
    writeFileSync(join(app, 'verify.cjs'), check(`const r = require('@hookline/receiver');`));
    for (const file of ['verify.mjs', 'verify.cjs']) {
      const { stdout } = await run(nodeBin, [file], { cwd: app, env, timeoutMs: 60_000 });
      assert.deepEqual(JSON.parse(stdout), { scheme: 'hookline', eventId: 'evt_1', refused: true, v1a: true }, file);
    }

    // npx hookline serve on a temporary SQLite file.
    const serve = startChild(
      'npx',
      [
        '--no-install',
        'hookline',
        'serve',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--db',
        join(app, 'hookline.db'),
        '--allow-http',
        '--allow-private-targets',
      ],
      { cwd: app, env },
      t.after.bind(t),
    );
    const [, url, token] = await serve.waitFor(/on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*admin token[^:]*: (hl_admin_\S+)/);
    // The console comes with the server (@hookline/console's static files), at the address the banner prints.
    const [, consoleUrl] = await serve.waitFor(/\nconsole {3}(http:\/\/\S+)/);
    assert.equal(consoleUrl, `${url}/console/`);
    const page = await fetch(consoleUrl!);
    assert.equal(page.status, 200, 'the console is served');
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);

    // A loopback receiver made with the installed @hookline/receiver. The endpoint's secret exists only once the
    // endpoint (with the receiver's URL) does: the receiver reads it from its stdin and verifies with it.
    writeFileSync(
      join(app, 'receiver.mjs'),
      `import { createServer } from 'node:http';
import { verifyWebhook } from '@hookline/receiver';
const secret = new Promise((resolve) => { let s = ''; process.stdin.on('data', (c) => { s += c; if (s.includes('\\n')) resolve(s.trim()); }); });
createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c)).on('end', async () => {
    try {
      const signed = verifyWebhook(req.headers, Buffer.concat(chunks), { secrets: await secret });
      console.log('verified ' + signed.eventId);
      res.end('ok');
    } catch (e) { console.log('refused ' + e.message); res.statusCode = 401; res.end(); }
  });
}).listen(0, '127.0.0.1', function () { console.log('receiver on ' + this.address().port); });
`,
    );
    const receiver = startChild(nodeBin, ['receiver.mjs'], { cwd: app, env }, t.after.bind(t));
    const [, port] = await receiver.waitFor(/receiver on (\d+)/);

    // Tenant, endpoint and event through the installed @hookline/client, from an .mjs file in the project.
    writeFileSync(
      join(app, 'send.mjs'),
      `import { createHooklineClient, unwrap } from '@hookline/client';
const [url, token, receiverUrl] = process.argv.slice(2);
const hookline = createHooklineClient({ baseUrl: url, token });
const tenant = unwrap(await hookline.POST('/v1/tenants', { body: { name: 'Packed', owner_emails: ['ops@packed.test'] } }));
const endpoint = unwrap(await hookline.POST('/v1/tenants/{tenant}/endpoints', { params: { path: { tenant: tenant.id } }, body: { url: receiverUrl, event_types: ['order.*'], policy: 'standard' } }));
console.log(endpoint.secret);
await new Promise((resolve) => process.stdin.once('data', resolve));
const accepted = unwrap(await hookline.POST('/v1/tenants/{tenant}/events', { params: { path: { tenant: tenant.id } }, body: { event_id: 'ord_packed_1', type: 'order.created', data: { order_id: 1 } } }));
console.log('accepted ' + accepted.event.id + ' ' + accepted.deliveries.length);
`,
    );
    const send = startChild(
      nodeBin,
      ['send.mjs', url, token, `http://127.0.0.1:${port}/hook`],
      { cwd: app, env },
      t.after.bind(t),
    );
    const [, secret] = await send.waitFor(/^(whsec_\S+)$/m);
    receiver.child.stdin!.write(`${secret}\n`);
    send.child.stdin!.write('go\n');
    const [, eventId, deliveries] = await send.waitFor(/accepted (\S+) (\d+)/);
    assert.equal(deliveries, '1');
    const [, verified] = await receiver.waitFor(/(verified|refused) .*/);
    assert.equal(verified, 'verified', 'the delivery carries a valid signature');
    assert.match((await receiver.waitFor(/verified (\S+)/))[1], new RegExp(`^(ord_packed_1|${eventId})$`));
  });
}
