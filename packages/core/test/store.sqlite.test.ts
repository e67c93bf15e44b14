// The store conformance suite on SQLite: a fresh database file per check, with the connection on the event loop
// and on its own store thread (what `hookline serve` runs).
import { storeConformance } from '../src/store/store-conformance.ts';
import { orderingConformance } from '../src/store/ordering-conformance.ts';
import { tempStore } from './harness.ts';

storeConformance('sqlite', async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
});

storeConformance('sqlite (store thread)', async () => {
  const t = await tempStore({ thread: true });
  return { store: t.store, cleanup: t.cleanup };
});

orderingConformance('sqlite', async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
});

orderingConformance('sqlite (store thread)', async () => {
  const t = await tempStore({ thread: true });
  return { store: t.store, cleanup: t.cleanup };
});
