// The store conformance suite on SQLite: a fresh database file per check.
import { storeConformance } from '../src/store/store-conformance.ts';
import { tempStore } from './harness.ts';

storeConformance('sqlite', async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
});
