import { runStoreConformance } from '../../testing/store-conformance.ts';
import { memoryStore } from './memory-store.ts';

runStoreConformance(
  'memory',
  async () => {
    const store = memoryStore();
    return { store, breakBackend: async () => store.setUnavailable(true), close: async () => {} };
  },
  { prunes: true },
);
