// The OpenTelemetry trace SDK of a `hookline serve` process (docs/observability.md#traces): one tracer provider from
// the resolved TracingConfig, batching spans to an OTLP/HTTP endpoint (protobuf or JSON), flushed on close.
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../config-tracing.ts';

export interface Tracing {
  readonly tracer: Tracer;
  /** Exports the spans still batched and stops; later spans are dropped. */
  close(): Promise<void>;
}

function samplerOf(c: TracingConfig): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(c.samplerRatio);
  switch (c.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Starts the SDK for one process; not registered globally, the tracer is handed to whoever makes spans. */
export function startTracing(c: TracingConfig, process: { role: string; instanceId: string }): Tracing {
  const options = { url: c.url, headers: { ...c.headers } };
  const exporter = c.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...c.resourceAttributes,
      'service.name': c.serviceName,
      'service.instance.id': process.instanceId,
      'hookline.role': process.role,
    }),
    sampler: samplerOf(c),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: c.scheduleDelayMs })],
  });
  const tracer = provider.getTracer('hookline');
  let closing: Promise<void> | null = null;
  return {
    tracer,
    close() {
      closing ??= provider.shutdown().catch(() => undefined);
      return closing;
    },
  };
}
