// Tests' name for running an engine's due work on a virtual clock until nothing is left: the runtime loop itself
// (src/dispatch/run-until-idle.ts, which `hookline simulate` also runs), so tests and simulate share one loop.
export { type RunUntilIdleOptions as SettleOptions, runUntilIdle as settle } from '../src/dispatch/run-until-idle.ts';
