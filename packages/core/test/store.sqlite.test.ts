// The store conformance suite on SQLite: a fresh database file per check, with the connection on the event loop
// and on its own store thread (what `hookline serve` runs).
import { storeConformance } from '../testing/store-conformance/index.ts';
import { outboxConformance } from '../testing/outbox-conformance.ts';
import { tempStore } from '../testing/harness.ts';

storeConformance('sqlite', async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
});

storeConformance('sqlite (store thread)', async () => {
  const t = await tempStore({ thread: true });
  return { store: t.store, cleanup: t.cleanup };
});

outboxConformance('sqlite', async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
});

outboxConformance('sqlite (store thread)', async () => {
  const t = await tempStore({ thread: true });
  return { store: t.store, cleanup: t.cleanup };
});
