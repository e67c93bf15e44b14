// node:test with a default per-test timeout (preload.mjs): test() and it() get `timeout` unless they name one.
// HOOKLINE_TEST_PER_TEST_TIMEOUT_MS sets the default (120 s); a test that needs longer says so, and why, itself.
import * as original from 'node:test';

export * from 'node:test';

const DEFAULT_MS = Number(process.env.HOOKLINE_TEST_PER_TEST_TIMEOUT_MS || 120_000);

/** The arguments of test([name], [options], [fn]) with `timeout` in the options unless they have one. */
function withTimeout(args) {
  const i = typeof args[0] === 'string' ? 1 : 0;
  const options = args[i];
  if (options !== null && typeof options === 'object') {
    if (options.timeout === undefined) args[i] = { ...options, timeout: DEFAULT_MS };
  } else if (options === undefined || options === null) {
    args[i] = { timeout: DEFAULT_MS };
  } else {
    args.splice(i, 0, { timeout: DEFAULT_MS });
  }
  return args;
}

function wrap(fn) {
  const wrapped = (...args) => fn(...withTimeout(args));
  for (const key of ['skip', 'todo', 'only'])
    if (typeof fn[key] === 'function') wrapped[key] = (...args) => fn[key](...withTimeout(args));
  return wrapped;
}

// A test file's process that ends before its tests do (a process.exit, a crash past the runner) must not pass: node 20's
// runner reports only the tests it heard of and, on exit code 0, a pass (seen once in CI: a receiver file stopped inside
// a describe, 8 tests unheard of, the run green). The root `after` hook runs once every test of the file has ended; an
// exit before it fails the file with a line saying so.
let ended = false;
original.after(() => {
  ended = true;
});
process.on('exit', (code) => {
  if (ended || code !== 0) return;
  process.stderr.write(`test file ${process.argv[1]}: the process exited before its tests ended\n`);
  process.exitCode = 1;
});

export const test = wrap(original.test);
export const it = wrap(original.it);
export default Object.assign(test, { ...original.default, test, it });
