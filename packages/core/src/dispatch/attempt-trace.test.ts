import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTraceHeaders } from './attempt-trace.ts';

test("the attempt's trace headers replace any of the same name in any case, and leave the others", () => {
  const headers: Record<string, string> = { TraceParent: 'old', TRACESTATE: 'old', 'x-other': '1' };
  setTraceHeaders(headers, { traceparent: 'new', tracestate: 's' });
  assert.deepEqual(headers, { 'x-other': '1', traceparent: 'new', tracestate: 's' });
  const only: Record<string, string> = { tracestate: 'stale' };
  setTraceHeaders(only, { traceparent: 'new' });
  assert.deepEqual(only, { traceparent: 'new' }, 'a stale tracestate does not travel with a new traceparent');
});
