// StrykerJS configuration for `npm run mutate` (scripts/mutate.sh): one module group per run, chosen by
// HOOKLINE_MUTATE_GROUP, each mutating only its own files and running only the test files that cover them.
/**
 * The modules where a silent change costs most (issue 20 item 4). `tests` are the test files that exercise the
 * mutated files by relative import: the sandbox's node_modules is a symlink to the real one, so a test that
 * imports `@hookline/core` by name would load the unmutated original.
 */
export const groups = {
  policy: {
    mutate: [
      'packages/core/src/policy/decide.ts',
      'packages/core/src/policy/classify.ts',
      'packages/core/src/policy/money-rules.ts',
      'packages/core/src/policy/presets.ts',
      'packages/core/src/dispatch/next-state.ts',
    ],
    tests: [
      'packages/core/src/policy/{decide,decide.payments,classify,money-rules,presets,registry}.test.ts',
      'packages/core/src/dispatch/next-state.test.ts',
    ],
  },
  breaker: {
    mutate: ['packages/core/src/breaker/breaker-rules.ts'],
    tests: ['packages/core/src/breaker/breaker-rules.test.ts'],
  },
  signing: {
    mutate: [
      'packages/core/src/signing/sign-headers.ts',
      'packages/core/src/signing/signing-keys.ts',
      'packages/receiver/src/signature-hookline.ts',
      'packages/receiver/src/signature-standard.ts',
      'packages/receiver/src/verify.ts',
      'packages/receiver/src/secret-key.ts',
    ],
    tests: [
      'packages/core/src/signing/*.test.ts',
      'packages/receiver/src/{verify,verify.ed25519,secret-key,signature-hookline,signature-standard}.test.ts',
    ],
  },
  'address-guard': {
    mutate: ['packages/core/src/http/address-guard.ts', 'packages/core/src/http/guarded-lookup.ts'],
    tests: ['packages/core/src/http/{address-guard,guarded-lookup}.test.ts'],
  },
  'wal-sync': {
    mutate: ['packages/core/src/store/sqlite/wal-sync.ts'],
    tests: ['packages/core/src/store/sqlite/wal-sync.test.ts'],
  },
  // Replay selection is SQL (schedule-window-replay.sql, covered by the store conformance suites); what is JS is
  // the replay operations (single and window, the quota and its Retry-After).
  replay: {
    mutate: ['packages/core/src/operations/replays.ts'],
    tests: ['packages/core/test/replay.window.test.ts', 'packages/core/test/replay.delivery.test.ts'],
  },
  // The dispatcher's carved modules, by their unit tests (fast). dispatcher.ts and its attempt pipeline
  // (attempt-pipeline.ts) are reached only through engine tests, seconds per mutant over some 300 mutants; they stay
  // out until a unit-level net reaches them.
  dispatch: {
    mutate: [
      'packages/core/src/dispatch/endpoint-throttles.ts',
      'packages/core/src/dispatch/attempt-recorder.ts',
      'packages/core/src/dispatch/delivery-attempt.ts',
      'packages/core/src/dispatch/held-deliveries.ts',
      'packages/core/src/dispatch/lane.ts',
    ],
    tests: [
      'packages/core/src/dispatch/{endpoint-throttles,attempt-recorder,delivery-attempt,held-deliveries,lane}.test.ts',
    ],
  },
  // The endpoint operations (create, update, delete and what deletion tells the dispatcher), through the engine.
  'endpoints-ops': {
    mutate: ['packages/core/src/operations/endpoints.ts', 'packages/core/src/operations/endpoint-input.ts'],
    tests: ['packages/core/test/endpoint.{edit,options,catch-up,test-delivery,delete}.test.ts'],
  },
  // The rate bucket and adaptive concurrency: their unit tests and the engine's steady-stream rate test.
  pacing: {
    mutate: ['packages/core/src/pacing/rate-bucket.ts', 'packages/core/src/pacing/adaptive-concurrency.ts'],
    tests: ['packages/core/src/pacing/*.test.ts', 'packages/core/test/dispatch.rate-limit-stream.test.ts'],
  },
  filters: {
    mutate: ['packages/core/src/filters/payload-filter.ts'],
    tests: ['packages/core/src/filters/*.test.ts'],
  },
  // What the outbox module keeps after the store split: the drainer and the breaker transitions' rows.
  outbox: {
    mutate: ['packages/core/src/outbox/outbox-drainer.ts', 'packages/core/src/outbox/outbox-entries.ts'],
    tests: ['packages/core/src/outbox/*.test.ts'],
  },
  // Issue 35: tenant limits (admission on accept, the accept transaction's limit rows, usage) and the endpoint cap
  // under concurrent creations, through the engine on SQLite (and PostgreSQL when HOOKLINE_TEST_PG_URL is set).
  'tenant-limits': {
    mutate: [
      'packages/core/src/pacing/tenant-admission.ts',
      'packages/core/src/store/tenant-limits.ts',
      // Only the limits patch and usage of operations/tenants.ts (the rest is tenant administration).
      'packages/core/src/operations/tenants.ts:180-189',
      'packages/core/src/operations/tenants.ts:206-248',
    ],
    tests: [
      'packages/core/src/pacing/tenant-admission.test.ts',
      'packages/core/test/tenant-limits.{accept,endpoint-cap}.test.ts',
    ],
  },
  // Issue 35: Svix idempotency — the engine's run-once record and the API's key scope and request hash. The server
  // test reaches svix-idempotency.ts by relative import; the engine's idempotency.ts only through its core test.
  'svix-idempotency': {
    mutate: ['packages/server/src/routes/svix/svix-idempotency.ts', 'packages/core/src/operations/idempotency.ts'],
    tests: ['packages/core/test/idempotency.run.test.ts', 'packages/server/test/api.svix-messages.test.ts'],
  },
  // Issue 35: event search's bounds (window edges, prefix, cursors, scan budget), by its unit test and the engine.
  'event-search': {
    mutate: ['packages/core/src/operations/event-search.ts'],
    tests: ['packages/core/src/operations/event-search.test.ts', 'packages/core/test/events.search.test.ts'],
  },
  // Issue 35: attempt spans (the hour counted from the accept, attributes, links) through their unit tests and the
  // engine on a virtual clock with a recording tracer.
  tracing: {
    mutate: [
      'packages/core/src/tracing/attempt-span.ts',
      'packages/core/src/tracing/trace-context.ts',
      'packages/core/src/dispatch/attempt-trace.ts',
    ],
    tests: [
      'packages/core/src/tracing/*.test.ts',
      'packages/core/src/dispatch/attempt-trace.test.ts',
      'packages/core/test/tracing.attempt-spans.test.ts',
    ],
  },
  // Issue 35: the audit chain (what the hash covers), redaction, and verify and the actor through the engine.
  audit: {
    mutate: [
      'packages/core/src/audit/audit-chain.ts',
      'packages/core/src/audit/audit-redaction.ts',
      'packages/core/src/operations/audit.ts',
    ],
    tests: ['packages/core/src/audit/*.test.ts', 'packages/core/test/audit.{verify,actors}.test.ts'],
  },
  // Issue 35: an endpoint's way out — the settings cache (version, sealing contexts), the settings as the API sets
  // them, and route matching — through unit tests and the engine.
  egress: {
    mutate: [
      'packages/core/src/dispatch/egress-cache.ts',
      'packages/core/src/operations/endpoint-egress.ts',
      'packages/core/src/egress-routes.ts',
    ],
    tests: [
      'packages/core/src/dispatch/egress-cache.test.ts',
      'packages/core/src/egress-routes.test.ts',
      'packages/core/test/egress.*.test.ts',
    ],
  },
};

const name = process.env.HOOKLINE_MUTATE_GROUP;
const group = groups[name];
if (!group)
  throw new Error(`stryker.config.mjs: set HOOKLINE_MUTATE_GROUP to one of ${Object.keys(groups).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  plugins: ['@stryker-mutator/tap-runner'],
  tap: {
    testFiles: group.tests,
    // Run each test file directly (no `--test`), so it runs in the process that carries Stryker's hook.
    // Workspace packages resolve to their TypeScript sources (the `source` export condition), as in npm test; only
    // here, in the test processes: Stryker's own process must not get it (tap-parser 17 exports a `source` entry
    // that its package does not ship, so the tap runner plugin would fail to load).
    nodeArgs: ['--conditions=source', '-r', '{{hookFile}}', '--import', 'tsx', '--test-reporter=tap', '{{testFile}}'],
    forceBail: true,
  },
  mutate: group.mutate,
  // Stryker runs only the test files whose dry run reached a mutant (the tap runner reports coverage per file).
  coverageAnalysis: 'perTest',
  // The sandbox copies the project; only the packages and root config are needed (node_modules is symlinked).
  ignorePatterns: ['/docs', '/bench', '/.ci', '/reports', '**/*.db', '**/*.db-wal', '**/*.db-shm', '**/.hookline'],
  tempDirName: '.stryker-tmp',
  // Stryker rewrites the sandbox's tsconfig through TypeScript's JS API, which TypeScript 7 (native) no longer has;
  // tsx needs no path rewriting here, so point the rewrite at a file that does not exist.
  tsconfigFile: 'tsconfig.stryker-none.json',
  // A mutant whose run takes this much longer than the dry run is a timeout (counted as detected: an infinite loop).
  timeoutMS: 5_000,
  timeoutFactor: 1.5,
  concurrency: 2,
  reporters: ['json', 'clear-text'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { reportTests: false, reportMutants: false, reportScoreTable: true, allowColor: false },
  thresholds: { high: 90, low: 80, break: null },
};
