// Test support for the receiver toolkit, imported as `@hookline/receiver/testing`: the conformance suites every dedup
// store and every inbox store must pass; run them on your own store too. Never imported by src/.
export { runStoreConformance, type ConformanceOptions, type StoreUnderTest } from './store-conformance.ts';
export { runInboxConformance, type InboxUnderTest } from './inbox-conformance.ts';
