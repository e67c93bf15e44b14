import { memoryStore } from './memory-store.ts';
import { runStoreConformance } from '../../testing/store-conformance.ts';

runStoreConformance(
  'memory',
  async () => {
    const store = memoryStore();
    return { store, breakBackend: async () => store.setUnavailable(true), close: async () => {} };
  },
  { prunes: true },
);
