// Test fixtures for engine tests: a temp SQLite file, a tenant, an engine on a virtual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualClock } from '../src/clock.ts';
import type { Tenant } from '../src/domain.ts';
import type { HooklineOptions } from '../src/engine-options.ts';
import { createHookline, type Hookline } from '../src/hookline.ts';
import { seededRandom } from '../src/policy/random.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { openSqliteThreadStore } from '../src/store/sqlite/sqlite-thread.ts';
import type { Store } from '../src/store/store.ts';

/**
 * The one tenant fixture for engine tests: creates tenant `id` (default `ten_TEST`) in `store`, stamped with
 * `at` (default Date.now()); `fields` overrides the rest of the row. Returns the id.
 */
export async function testTenant(
  store: Store,
  options: { id?: string; at?: number; fields?: Partial<Omit<Tenant, 'id' | 'createdAt' | 'updatedAt'>> } = {},
): Promise<string> {
  const id = options.id ?? 'ten_TEST';
  const at = options.at ?? Date.now();
  await store.catalog.createTenant({
    id,
    name: 'Test',
    ownerEmails: ['owner@example.test'],
    operationsEndpointId: null,
    notifyEmail: true,
    ...options.fields,
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

/** A fresh SQLite file; `thread` puts its connection on a store thread, as the server does. */
export async function tempStore(
  options: { thread?: boolean } = {},
): Promise<{ store: Store; path: string; cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-test-'));
  const path = join(dir, 'hookline.db');
  const store = options.thread ? await openSqliteThreadStore(path) : await openSqliteStore(path);
  return {
    store,
    path,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function testEngine(options: Partial<HooklineOptions> & { store?: Store } = {}) {
  const clock = (options.clock as VirtualClock | undefined) ?? new VirtualClock(Date.UTC(2026, 0, 5, 12));
  const temp = options.store ? null : await tempStore();
  const store = options.store ?? temp!.store;
  const engine: Hookline = createHookline({
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { random: seededRandom(7), logAttempts: false, ...options.dispatcher },
    ...options,
    store,
    clock,
  });
  const tenantId = await testTenant(store, { at: clock.now() });
  return {
    engine,
    clock,
    store,
    tenantId,
    async close() {
      await engine.stop();
      if (temp) await temp.cleanup();
    },
  };
}
