-- 021_trace_context: the W3C trace context an event's attempts continue (docs/observability.md#traces), stored with
-- the event so it survives the hop from the process that accepted it to the one that sends it; and each attempt's
-- trace id (null when tracing was off for it).
ALTER TABLE events ADD COLUMN traceparent TEXT;
ALTER TABLE events ADD COLUMN tracestate TEXT;
ALTER TABLE attempts ADD COLUMN trace_id TEXT;
