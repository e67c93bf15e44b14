// A worker SIGKILLed between a transition's commit and its notification's send (docs/rules.md#notifications): the
// restarted worker still sends it, from the outbox the transition's own transaction wrote, under the same id.

import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateMasterKey, openSqliteStore } from '@hookline/core';
import { ownChild, startReceiver, until, within } from '@hookline/core/testing';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';

const WORKER = new URL('./fixtures/notify-worker.ts', import.meta.url).pathname;

test('a worker killed after the degradation commits and before its mail is sent: the restarted worker sends it, once noticed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-notify-kill-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'hookline.db');
  const masterKey = generateMasterKey();

  // The sink holds the first mail's DATA unanswered (the send is in flight) and says so; later mails are accepted.
  let holding = true;
  let onHeld: () => void = () => {};
  const held = new Promise<void>((r) => (onHeld = r));
  const mails: string[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (holding) return onHeld();
        mails.push(Buffer.concat(chunks).toString());
        done();
      });
    },
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  t.after(() => new Promise<void>((r) => sink.close(() => r())));
  const smtpPort = String((sink.server.address() as AddressInfo).port);
  const rx = await startReceiver(() => 500);
  t.after(() => rx.close());

  const start = (mode: 'first' | 'restart') =>
    ownChild(
      fork(WORKER, [db, masterKey, smtpPort, rx.url, mode], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
      t.after.bind(t),
    );

  const first = start('first');
  const exited = new Promise((r) => first.once('exit', r));
  await within('the first worker to start sending the degradation mail', 60_000, held);
  first.kill('SIGKILL');
  await within('the killed worker to exit', 10_000, exited);
  holding = false;

  // Between the kill and the restart: the degradation is committed, its notification pending (leased by the dead
  // worker), no mail accepted. Read without the store, so nothing here hands the lease back.
  const file = new Database(db, { readonly: true, fileMustExist: true });
  const endpoint = file.prepare('SELECT id, status FROM endpoints').get() as { id: string; status: string };
  const pending = file.prepare('SELECT id, kind, status, endpoint_id, lease_until FROM outbox').all() as Array<{
    id: string;
    kind: string;
    status: string;
    endpoint_id: string;
    lease_until: number | null;
  }>;
  file.close();
  assert.equal(endpoint.status, 'degraded');
  assert.deepEqual(
    pending.map((r) => [r.kind, r.status, r.endpoint_id]),
    [['endpoint.degraded', 'pending', endpoint.id]],
  );
  assert.ok(pending[0].lease_until !== null, 'claimed by the killed worker');
  const outboxId = pending[0].id;
  assert.equal(mails.length, 0);

  const second = start('restart');
  await until(() => mails.length >= 1, undefined, {
    what: 'the restarted worker to send the degradation mail',
    timeoutMs: 60_000,
  });
  const secondExited = new Promise((r) => second.once('exit', r));
  second.disconnect();
  await within('the restarted worker to exit', 10_000, secondExited);

  assert.match(mails[0], /Subject: \[Hookline live\] Endpoint failing/);
  assert.match(mails[0], new RegExp(`^Message-ID: <${outboxId}@`, 'mi'), 'the mail carries the outbox id');
  const after = await openSqliteStore(db);
  try {
    const notices = (await after.outbox.listNotices('ten_KILL', null, 10)).items;
    assert.deepEqual(
      notices.map((n) => [n.id, n.kind]),
      [[outboxId, 'endpoint.degraded']],
      'one notice, under the outbox id',
    );
    assert.deepEqual(
      await after.outbox.claimOutbox(Date.now() + 60_000, 10, 0),
      [],
      'marked sent: nothing left to send',
    );
  } finally {
    await after.close();
  }
});
