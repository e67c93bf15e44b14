// One process per SQLite file: the owner lock beside the database, a second `hookline serve` refused, stale locks taken over.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { acquireSqliteOwnerLock, DatabaseInUseError } from '../src/sqlite-owner-lock.ts';
import { runCli, startCli } from './cli-harness.ts';
import { ADMIN_TOKEN } from './server-harness.ts';

function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-owner-test-'));
  return { dir, db: join(dir, 'hookline.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The pid of a process that has exited: nobody owns a lock naming it. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const config = (dir: string, db: string) =>
  resolveConfig({
    env: {},
    argv: {
      port: 0,
      host: '127.0.0.1',
      db,
      dataDir: join(dir, 'data'),
      adminToken: ADMIN_TOKEN,
      masterKey: Buffer.alloc(32, 5).toString('base64'),
    },
  });

test('a second server on the same SQLite file is refused while the first runs, and starts once it has closed', async () => {
  const { dir, db, cleanup } = tempDb();
  try {
    const first = await startServer(config(dir, db));
    assert.equal(readFileSync(`${db}.lock`, 'utf8').split('\n')[0], String(process.pid));
    await assert.rejects(startServer(config(dir, db)), (err: Error) => {
      assert.ok(err instanceof DatabaseInUseError);
      assert.match(
        err.message,
        /is in use by another Hookline process \(pid \d+\); on SQLite one process owns the file/,
      );
      return true;
    });
    await first.close();
    assert.equal(existsSync(`${db}.lock`), false, 'closing gives the file up');
    const again = await startServer(config(dir, db));
    await again.close();
  } finally {
    cleanup();
  }
});

test('a lock left by a dead process, or by an earlier process with our pid, is stale and taken over', () => {
  const { db, cleanup } = tempDb();
  try {
    writeFileSync(`${db}.lock`, `${deadPid()}\nabc\n`);
    const lock = acquireSqliteOwnerLock(db);
    assert.equal(readFileSync(`${db}.lock`, 'utf8').split('\n')[0], String(process.pid));
    lock.release();
    // A container restarted with the same pid (pid 1) finds its own pid in a lock it does not hold.
    writeFileSync(`${db}.lock`, `${process.pid}\nold\n`);
    const mine = acquireSqliteOwnerLock(db);
    assert.notEqual(readFileSync(`${db}.lock`, 'utf8'), `${process.pid}\nold\n`);
    mine.release();
    // A live owner (our parent) is never taken over.
    writeFileSync(`${db}.lock`, `${process.ppid}\nlive\n`);
    assert.throws(() => acquireSqliteOwnerLock(db), DatabaseInUseError);
    assert.equal(readFileSync(`${db}.lock`, 'utf8'), `${process.ppid}\nlive\n`);
  } finally {
    cleanup();
  }
});

test('hookline serve: a second process on the same SQLite file exits 5 with one line; --role api|worker on SQLite exits 2', async () => {
  const { dir, db, cleanup } = tempDb();
  const env = { HOOKLINE_ADMIN_TOKEN: ADMIN_TOKEN, HOOKLINE_DATA_DIR: join(dir, 'data') };
  const first = startCli(['serve', '--db', db, '--port', '0'], env);
  try {
    await first.stderrLine(/^hookline API and delivery workers on http:/);
    const second = await runCli(['serve', '--db', db, '--port', '0'], env);
    assert.equal(second.code, 5);
    assert.equal(second.stderr.trim().split('\n').length, 1, second.stderr);
    assert.match(
      second.stderr,
      /^hookline: .*hookline\.db is in use by another Hookline process \(pid \d+\); on SQLite one process owns the file/,
    );
    const migrate = await runCli(['migrate', '--db', db], env);
    assert.equal(migrate.code, 5, migrate.stderr);
    for (const role of ['api', 'worker']) {
      const split = await runCli(['serve', '--db', db, '--port', '0', '--role', role], env);
      assert.equal(split.code, 2);
      assert.equal(split.stderr.trim().split('\n').length, 1, split.stderr);
      assert.match(
        split.stderr,
        new RegExp(
          `^hookline: config role: ${role} needs PostgreSQL; on SQLite one process owns the file: use --role all`,
        ),
      );
    }
  } finally {
    first.child.kill('SIGTERM');
    const end = await first.done;
    assert.equal(end.code, 0, end.stderr);
    assert.equal(existsSync(`${db}.lock`), false);
    cleanup();
  }
});
