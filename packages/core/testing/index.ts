// Test support for Hookline's engine, imported as `@hookline/core/testing`: the store conformance suite, the virtual-clock
// settle loop, engine fixtures and the waits and child handling every package's tests share. Never imported by src/.
export { storeConformance, type StoreFactory, type StoreUnderTest } from './store-conformance/index.ts';
export { settle, type SettleOptions } from './settle.ts';
export { startReceiver, tempStore, testEngine, type Received } from './harness.ts';
export { waitUntil, within } from './deadline.ts';
export { ownChild } from './children.ts';
export { buildFaultFs } from './fault-fs/build.ts';
