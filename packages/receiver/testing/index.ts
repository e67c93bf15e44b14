// Test support for the receiver toolkit, imported as `@hookline/receiver/testing`: the conformance suites every dedup
// store and every inbox store must pass; run them on your own store too. Never imported by src/.

export { type InboxUnderTest, runInboxConformance } from './inbox-conformance.ts';
export { type ConformanceOptions, runStoreConformance, type StoreUnderTest } from './store-conformance.ts';
