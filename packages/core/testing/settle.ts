// Tests' name for running an engine's due work on a virtual clock until nothing is left: the runtime loop itself
// (src/dispatch/run-until-idle.ts, which `hookline simulate` also runs), so tests and simulate share one loop.
export { runUntilIdle as settle, type RunUntilIdleOptions as SettleOptions } from '../src/dispatch/run-until-idle.ts';
