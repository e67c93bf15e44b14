// Tracing's configuration from the standard OpenTelemetry environment (docs/observability.md#traces), read once by
// config.ts: null unless an OTLP endpoint is set (and the SDK is not disabled), so tracing costs nothing by default.
import { ConfigError } from './config-error.ts';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

export interface TracingConfig {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  protocol: OtlpProtocol;
  /** OTEL_EXPORTER_OTLP_HEADERS, then OTEL_EXPORTER_OTLP_TRACES_HEADERS over them. */
  headers: Readonly<Record<string, string>>;
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES (service.name from OTEL_SERVICE_NAME wins). */
  resourceAttributes: Readonly<Record<string, string>>;
  sampler: SamplerName;
  /** The ratio of the *traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 0…1. */
  samplerRatio: number;
  /** OTEL_BSP_SCHEDULE_DELAY: how long spans wait to be exported in a batch (default 5000 ms). */
  scheduleDelayMs: number;
}

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** `key=value,key2=value2` with percent-encoded values (the OTLP exporter and OTEL_RESOURCE_ATTRIBUTES format). */
export function parseKeyValueList(text: string, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0)
      throw new ConfigError(name, `must be key=value pairs separated by commas, got ${JSON.stringify(item)}`);
    try {
      out[decodeURIComponent(item.slice(0, eq).trim())] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      throw new ConfigError(name, `has a badly percent-encoded pair: ${JSON.stringify(item)}`);
    }
  }
  return out;
}

function httpUrl(value: string, name: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ConfigError(name, `must be an http(s) URL, got ${JSON.stringify(value)}`);
  return u;
}

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The tracing settings, or null when tracing is off (no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none). */
export function readTracing(env: NodeJS.ProcessEnv): TracingConfig | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return null;
  if (set(exporter) && exporter !== 'otlp')
    throw new ConfigError('OTEL_TRACES_EXPORTER', `must be otlp or none, got ${JSON.stringify(exporter)}`);
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  let url: string;
  if (set(traces)) url = httpUrl(traces.trim(), 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').toString();
  else if (set(base)) {
    const u = httpUrl(base.trim(), 'OTEL_EXPORTER_OTLP_ENDPOINT');
    // The base endpoint gets the signal's path appended (OTLP exporter specification).
    u.pathname = `${u.pathname.replace(/\/+$/, '')}/v1/traces`;
    url = u.toString();
  } else return null;
  const protocolText = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? '').trim();
  const protocol = protocolText === '' ? 'http/protobuf' : protocolText;
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new ConfigError(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      `must be http/protobuf or http/json (grpc is not supported), got ${JSON.stringify(protocol)}`,
    );
  const headers = {
    ...parseKeyValueList(env.OTEL_EXPORTER_OTLP_HEADERS ?? '', 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...parseKeyValueList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? '', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
  };
  const resourceAttributes = parseKeyValueList(env.OTEL_RESOURCE_ATTRIBUTES ?? '', 'OTEL_RESOURCE_ATTRIBUTES');
  const serviceName = set(env.OTEL_SERVICE_NAME)
    ? env.OTEL_SERVICE_NAME.trim()
    : (resourceAttributes['service.name'] ?? 'hookline');
  const samplerText = (env.OTEL_TRACES_SAMPLER ?? '').trim().toLowerCase();
  const sampler = (samplerText === '' ? 'parentbased_always_on' : samplerText) as SamplerName;
  if (!SAMPLERS.includes(sampler))
    throw new ConfigError(
      'OTEL_TRACES_SAMPLER',
      `must be one of ${SAMPLERS.join(', ')}, got ${JSON.stringify(samplerText)}`,
    );
  let samplerRatio = 1;
  if (set(env.OTEL_TRACES_SAMPLER_ARG) && sampler.endsWith('traceidratio')) {
    samplerRatio = Number(env.OTEL_TRACES_SAMPLER_ARG);
    if (!(samplerRatio >= 0 && samplerRatio <= 1))
      throw new ConfigError(
        'OTEL_TRACES_SAMPLER_ARG',
        `must be a ratio from 0 to 1, got ${JSON.stringify(env.OTEL_TRACES_SAMPLER_ARG)}`,
      );
  }
  let scheduleDelayMs = 5000;
  if (set(env.OTEL_BSP_SCHEDULE_DELAY)) {
    scheduleDelayMs = Number(env.OTEL_BSP_SCHEDULE_DELAY);
    if (!Number.isInteger(scheduleDelayMs) || scheduleDelayMs < 0 || scheduleDelayMs > 3_600_000)
      throw new ConfigError(
        'OTEL_BSP_SCHEDULE_DELAY',
        `must be milliseconds from 0 to 3600000, got ${JSON.stringify(env.OTEL_BSP_SCHEDULE_DELAY)}`,
      );
  }
  return { url, protocol, headers, serviceName, resourceAttributes, sampler, samplerRatio, scheduleDelayMs };
}
