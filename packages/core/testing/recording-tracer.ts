// An OpenTelemetry tracer for engine tests that keeps every span it makes (parent, links, attributes, status, end), so
// a test reads what the engine traced without an SDK or a collector. Ids are counters: readable in a failure message.
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/** One span as the engine left it. */
export interface RecordedSpan {
  name: string;
  kind: SpanKind | undefined;
  traceId: string;
  spanId: string;
  /** The parent's span id; null for a root span (no parent context, or `root: true`). */
  parentSpanId: string | null;
  /** Whether the parent came from another process (a producer's traceparent); null without a parent. */
  parentIsRemote: boolean | null;
  links: Link[];
  attributes: Attributes;
  status: SpanStatus | null;
  ended: boolean;
}

export interface RecordingTracer {
  tracer: Tracer;
  spans: RecordedSpan[];
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

class RecordingSpan implements Span {
  readonly #context: SpanContext;
  readonly #record: RecordedSpan;
  constructor(context: SpanContext, record: RecordedSpan) {
    this.#context = context;
    this.#record = record;
  }
  spanContext(): SpanContext {
    return this.#context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.#record.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.#record.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(link: Link): this {
    this.#record.links.push(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.#record.links.push(...links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.#record.status = status;
    return this;
  }
  updateName(name: string): this {
    this.#record.name = name;
    return this;
  }
  end(): void {
    this.#record.ended = true;
  }
  isRecording(): boolean {
    return !this.#record.ended;
  }
  recordException(): void {}
}

/** A tracer that records every span; trace ids `1…`, span ids `1…` in hex, one counter each. */
export function recordingTracer(): RecordingTracer {
  const spans: RecordedSpan[] = [];
  let traces = 0;
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, ctx?: Context): Span {
      const parent = ctx === undefined || options.root === true ? undefined : trace.getSpanContext(ctx);
      const context: SpanContext = {
        traceId: parent?.traceId ?? hex(++traces, 32),
        spanId: hex(spans.length + 1, 16),
        traceFlags: parent?.traceFlags ?? 1,
        ...(parent?.traceState ? { traceState: parent.traceState } : {}),
      };
      const record: RecordedSpan = {
        name,
        kind: options.kind,
        traceId: context.traceId,
        spanId: context.spanId,
        parentSpanId: parent?.spanId ?? null,
        parentIsRemote: parent === undefined ? null : parent.isRemote === true,
        links: [...(options.links ?? [])],
        attributes: { ...options.attributes },
        status: null,
        ended: false,
      };
      spans.push(record);
      return new RecordingSpan(context, record);
    },
    startActiveSpan() {
      throw new Error('recordingTracer: the engine starts its spans with startSpan');
    },
  } as Tracer;
  return { tracer, spans };
}
