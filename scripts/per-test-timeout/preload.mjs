// A default per-test timeout for node:test (issue 23 item 3), loaded by scripts/test.sh through NODE_OPTIONS
// (`--import`): every test that names no `timeout` of its own gets one, so a deadlock fails naming its test within
// two minutes instead of waiting for the file's bound. On Node 20 `--test-timeout` bounds each file as a whole and
// cannot be set per process (NODE_OPTIONS refuses it), so the default is put on the tests themselves: `node:test`,
// imported by a test file, resolves to node-test.mjs beside this file, which passes the default to test()/it().
// ESM imports only (every package here is "type": "module"): a require() of node:test bypasses the hook.
// Only a test file's own process (node --test runs each file as `node … <file>`) loads node:test for its tests; the
// other processes tests start (the CLI, forks, threads) inherit NODE_OPTIONS and need no hook.
import { register } from 'node:module';

if (/\.test\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) register('./hooks.mjs', import.meta.url);
