// The store conformance suites on SQLite (store, outbox, ordering): a fresh database file per check, with the connection
// on the event loop and on its own store thread (what `hookline serve` runs).

import { tempStore } from '../testing/harness.ts';
import { orderingConformance } from '../testing/ordering-conformance.ts';
import { outboxConformance } from '../testing/outbox-conformance.ts';
import { storeConformance } from '../testing/store-conformance/index.ts';

const direct = async () => {
  const t = await tempStore();
  return { store: t.store, cleanup: t.cleanup };
};
const threaded = async () => {
  const t = await tempStore({ thread: true });
  return { store: t.store, cleanup: t.cleanup };
};

for (const suite of [storeConformance, outboxConformance, orderingConformance]) {
  suite('sqlite', direct);
  suite('sqlite (store thread)', threaded);
}
