// Public surface @hookline/core/simulation: the real engine on a virtual clock against scripted answers
// (`hookline simulate`); the caller hands it the engine factory (`createHookline`).

export { type IdleTarget, type RunUntilIdleOptions, runUntilIdle } from '../dispatch/run-until-idle.ts';
export { AttemptLog, SIM_NEXT_STATUSES, type SimAttempt, type SimEnded, type SimTransition } from './attempt-log.ts';
export { runScript, type ScriptResult, type ScriptRun } from './run-script.ts';
export { parseResponse, responseLabel, type ScriptedResponse } from './scripted-response.ts';
export { createScriptedSender, scriptPicker } from './scripted-sender.ts';
export {
  openSimEngine,
  SIM_ENDPOINT_URL,
  SIM_TENANT_ID,
  type SimEngine,
  type SimEngineOptions,
  type SimulatedEngine,
} from './sim-engine.ts';
