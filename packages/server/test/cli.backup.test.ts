// `hookline backup`: an online copy of a running server's SQLite file holds every event answered 202 before it
// began, and a second server started on the copy (same master key) finds them all; refusals are one line and a code.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, test } from 'node:test';
import { ownChild, startReceiver } from '@hookline/core/testing';
import Database from 'better-sqlite3';
import { runCli, runMain } from './cli-harness.ts';
import { readDb } from './fixtures/read-sqlite.ts';
import { killHard, serveApi, startServe } from './fixtures/serve-process.ts';

const ADMIN = 'backup-admin-token-0123456789';
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

test('a backup taken while serve runs and events keep arriving holds every event answered 202 before it began; a server on the copy finds them all', {
  // Two real `hookline serve` processes and a backup between them, with events acknowledged for up to 60 s first.
  timeout: 180_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-backup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'hookline.db');
  const env = {
    HOOKLINE_ADMIN_TOKEN: ADMIN,
    HOOKLINE_MASTER_KEY: MASTER_KEY,
    HOOKLINE_DATA_DIR: join(dir, 'data'),
    HOOKLINE_LOG_LEVEL: 'error',
  };
  const args = ['--allow-http', '--allow-private-targets'];

  // A receiver that answers 200: deliveries succeed, so the server writes attempts while the backup reads too.
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const hookUrl = receiver.url;

  const first = await startServe(['--db', db, ...args], env);
  ownChild(first.child, t.after.bind(t));
  const call = serveApi(() => first, ADMIN);
  const ten = await call('POST', '/v1/tenants', { name: 'backup' });
  assert.equal(ten.status, 201);
  const tenant = ten.body.id as string;
  const ep = await call('POST', `/v1/tenants/${tenant}/endpoints`, {
    url: hookUrl,
    policy: 'standard',
    max_concurrency: 20,
  });
  assert.equal(ep.status, 201, JSON.stringify(ep.body));

  const acked = new Set<string>();
  let next = 0;
  let stop = false;
  const post = async (): Promise<void> => {
    while (!stop) {
      const eventId = `e${next++}`;
      const r = await fetch(`${first.url}/v1/tenants/${tenant}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event_id: eventId, type: 'order.created', data: { eventId, pad: 'x'.repeat(200) } }),
        signal: AbortSignal.timeout(15_000),
      });
      await r.arrayBuffer();
      assert.equal(r.status, 202, `${eventId}: a running server accepts every event`);
      acked.add(eventId);
    }
  };
  // Posters keep going until the backup has exited: it copies a file that is being written.
  const posters = Array.from({ length: 4 }, post);
  const failed = Promise.all(posters).then(
    () => undefined,
    (err: unknown) => err,
  );
  const started = Date.now();
  while (acked.size < 300) {
    if (Date.now() - started > 60_000) assert.fail(`only ${acked.size} events acknowledged within 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }

  const ackedBefore = new Set(acked);
  const copy = join(dir, 'backups', 'hookline-copy.db');
  mkdirSync(join(dir, 'backups'));
  const run = await runCli(['backup', copy, '--db', db]);
  const ackedByEnd = acked.size;
  stop = true;
  const postError = await failed;
  assert.equal(postError, undefined, `posting failed: ${String(postError)}`);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^backup of .+hookline\.db written to .+hookline-copy\.db \(\d+ pages, \d+ bytes\)\n$/);
  assert.match(run.stderr, /master key is not in the backup/);
  t.diagnostic(
    `${ackedBefore.size} events acknowledged before the backup began, ${ackedByEnd - ackedBefore.size} more while it ran`,
  );
  assert.deepEqual(
    readdirSync(join(dir, 'backups')),
    ['hookline-copy.db'],
    'only the copy: no temporary file, WAL or journal left',
  );
  assert.equal(statSync(copy).mode & 0o777, 0o600, 'the copy is readable by its owner only');

  // The owner was not disturbed: it still holds its lock and still accepts events.
  assert.equal(Number.parseInt(readFileSync(`${db}.lock`, 'utf8'), 10), first.child.pid);
  const after = await call('POST', `/v1/tenants/${tenant}/events`, {
    event_id: 'after-backup',
    type: 'order.created',
    data: {},
  });
  assert.equal(after.status, 202);
  assert.equal(
    readDb(copy, (d) => d.pragma('integrity_check', { simple: true })),
    'ok',
  );

  // An offline backup of the file a killed server left (its WAL not yet checkpointed) holds everything it committed.
  await killHard(first);
  const offline = join(dir, 'backups', 'hookline-offline.db');
  const second = await runCli(['backup', offline, '--db', db]);
  assert.equal(second.code, 0, second.stderr);
  const count = (path: string) =>
    readDb(path, (d) => (d.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n);
  assert.equal(count(offline), count(db));
  assert.equal(count(db), acked.size + 1);

  // Without its master key the copy cannot be served: another key is refused at start (docs/deploy.md#backups).
  const otherKey = await runCli(['serve', '--port', '0', '--db', copy, ...args], {
    ...env,
    HOOKLINE_MASTER_KEY: Buffer.alloc(32, 8).toString('base64'),
  });
  assert.equal(otherKey.code, 2, otherKey.stderr);
  assert.match(
    otherKey.stderr,
    /^hookline: config masterKey: does not match the key this database was created with\n$/m,
  );

  // Restore: a server on the copy with the same master key finds every event.
  const restored = await startServe(['--db', copy, ...args], env);
  ownChild(restored.child, t.after.bind(t));
  try {
    const get = serveApi(() => restored, ADMIN);
    const missing: string[] = [];
    const ids = [...ackedBefore];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let id = ids.pop(); id !== undefined; id = ids.pop()) {
          const r = await get('GET', `/v1/tenants/${tenant}/events/${id}`);
          if (
            r.status !== 200 ||
            r.body.event?.event_id !== id ||
            r.body.event?.payload?.data?.eventId !== id ||
            r.body.deliveries?.length !== 1
          )
            missing.push(`${id}: ${r.status} ${JSON.stringify(r.body).slice(0, 600)}`);
        }
      }),
    );
    assert.deepEqual(missing, [], 'every event answered 202 before the backup began is in the restored server');
    const inCopy = count(copy);
    assert.ok(
      inCopy >= ackedBefore.size && inCopy <= ackedByEnd,
      `the copy holds ${inCopy} events: between ${ackedBefore.size} and ${ackedByEnd}`,
    );
  } finally {
    await killHard(restored);
  }
});

describe('hookline backup refusals: one line on stderr, an exit code, nothing written', { concurrency: true }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-backup-refusals-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'source.db');
  const seed = new Database(source);
  seed.pragma('journal_mode = WAL');
  seed.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
  seed.close();

  function assertRefused(
    r: { code: number | null; stdout: string; stderr: string },
    code: number,
    pattern: RegExp,
  ): void {
    assert.equal(r.code, code, `exit code; stderr: ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
    assert.match(lines[0], /^hookline: /);
    assert.match(lines[0], pattern);
  }
  function leftovers(sub: string): string[] {
    return readdirSync(join(dir, sub));
  }

  it('an existing file is never overwritten: exit 4', async () => {
    mkdirSync(join(dir, 'exists'));
    const target = join(dir, 'exists', 'taken.db');
    writeFileSync(target, 'keep me');
    assertRefused(
      await runMain(['backup', target, '--db', source]),
      4,
      /taken\.db already exists; a backup never overwrites a file/,
    );
    assert.equal(readFileSync(target, 'utf8'), 'keep me');
    assert.deepEqual(leftovers('exists'), ['taken.db']);
  });

  it('no database at --db: exit 3', async () => {
    assertRefused(
      await runMain(['backup', join(dir, 'never.db'), '--db', join(dir, 'absent.db')]),
      3,
      /no database at .*absent\.db/,
    );
    assert.equal(existsSync(join(dir, 'never.db')), false);
    assert.equal(existsSync(join(dir, 'absent.db')), false, 'the source is not created');
  });

  it('a file that is not a SQLite database: exit 5', async () => {
    mkdirSync(join(dir, 'junk'));
    const junk = join(dir, 'junk', 'junk.db');
    writeFileSync(junk, 'not a database '.repeat(100));
    assertRefused(
      await runMain(['backup', join(dir, 'junk', 'copy.db'), '--db', junk]),
      5,
      /cannot read .*junk\.db as a SQLite database/,
    );
    assert.deepEqual(leftovers('junk'), ['junk.db']);
  });

  it('a directory for <file> that does not exist: exit 2', async () => {
    assertRefused(
      await runMain(['backup', join(dir, 'nowhere', 'copy.db'), '--db', source]),
      2,
      /directory .*nowhere does not exist/,
    );
  });

  it('a PostgreSQL --db: exit 2, pointing at pg_dump', async () => {
    const r = await runMain(['backup', join(dir, 'pg.db'), '--db', 'postgres://u:secret@127.0.0.1:1/x']);
    assertRefused(r, 2, /is PostgreSQL; back it up with pg_dump/);
    assert.doesNotMatch(r.stderr, /secret/, 'the password is not printed');
    assert.equal(existsSync(join(dir, 'pg.db')), false);
  });

  it('a missing <file>: exit 2', async () => {
    assertRefused(await runMain(['backup', '--db', source]), 2, /backup: missing <file>/);
  });

  it('without a server, the copy holds the data and takes the name asked for', async () => {
    mkdirSync(join(dir, 'ok'));
    const target = join(dir, 'ok', 'copy.db');
    const r = await runMain(['backup', target, '--db', source]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(leftovers('ok'), ['copy.db']);
    assert.deepEqual(
      readDb(target, (d) => d.prepare('SELECT x FROM t').all()),
      [{ x: 1 }],
    );
  });
});
