// Test support for Hookline's engine, imported as `@hookline/core/testing`: the store conformance suite, the virtual-clock
// settle loop, engine fixtures and the waits and child handling every package's tests share. Never imported by src/.
//
// The shared helpers — use these rather than writing local ones:
//   startReceiver(respond?, { clock?, path? })  receiver.ts  the loopback webhook receiver: records requests (headers, raw
//                                                          body, arrival), answers a status/'hang'/full answer per request,
//                                                          waitFor(n) with a deadline, close()
//   until(read, done?, { what, timeoutMs })      deadline.ts  polls with a deadline, resolves with the value that satisfied done
//   within(what, ms, promise)                    deadline.ts  a deadline on a promise
//   S, MIN, H, DAY                               time.ts      time constants in ms (rules in days run on a VirtualClock)
//   testTenant(store, { id?, at?, fields? })     harness.ts   the tenant fixture for engine tests (server tests: srv.tenant())
//   tempStore(), testEngine()                    harness.ts   a temp SQLite store; an engine on a VirtualClock with a tenant
//   settle(...)                                  settle.ts    drives the engine on a virtual clock until idle
//   recordingTracer()                            recording-tracer.ts  an OpenTelemetry tracer keeping every span (parent,
//                                                          links, attributes, status): engine tests of tracing
//   ownChild(child, after)                       children.ts  kills a child process (group) when the test ends
//   atProcessEnd(end)                            children.ts  stops what is no child (a daemonized server) when the process ends

export { atProcessEnd, ownChild } from './children.ts';
export { until, within } from './deadline.ts';
export { buildFaultFs } from './fault-fs/build.ts';
export { tempStore, testEngine, testTenant } from './harness.ts';
export { type Received, type ReceiverAnswer, type Respond, startReceiver, type TestReceiver } from './receiver.ts';
export { type ProxyAsk, type RecordingProxy, startRecordingProxy } from './recording-proxy.ts';
export { type RecordedSpan, type RecordingTracer, recordingTracer } from './recording-tracer.ts';
export { type SettleOptions, settle } from './settle.ts';
export { type StoreFactory, type StoreUnderTest, storeConformance } from './store-conformance/index.ts';
export {
  haveOpenssl,
  type ServerCertificate,
  selfSignedCertificate,
  type TestCa,
  testCa,
} from './test-certificates.ts';
export { DAY, H, MIN, S } from './time.ts';
export { haveTinyproxy, startTinyproxy, type Tinyproxy } from './tinyproxy.ts';
