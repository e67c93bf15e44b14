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

export const test = wrap(original.test);
export const it = wrap(original.it);
export default Object.assign(test, { ...original.default, test, it });
