import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTracing } from './config-tracing.ts';

test('tracing is off unless an OTLP endpoint is set, and off when the SDK is disabled', () => {
  assert.equal(readTracing({}), null);
  assert.equal(readTracing({ OTEL_SERVICE_NAME: 'x' }), null);
  assert.equal(readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }), null);
  assert.equal(readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }), null);
});

test('the standard variables: endpoint paths, protocol, headers, service name, sampler', () => {
  const c = readTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/base/',
    OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db,x=1',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x=2',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=ignored',
    OTEL_SERVICE_NAME: 'hooks',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.25',
  });
  assert.equal(c?.url, 'http://collector:4318/base/v1/traces');
  assert.equal(c?.protocol, 'http/protobuf');
  assert.deepEqual(c?.headers, { 'api-key': 'a=b', x: '2' });
  assert.equal(c?.serviceName, 'hooks');
  assert.equal(c?.resourceAttributes['deployment.environment'], 'prod');
  assert.equal(c?.sampler, 'parentbased_traceidratio');
  assert.equal(c?.samplerRatio, 0.25);
  const t = readTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/custom/path',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  });
  assert.equal(t?.url, 'https://c/custom/path');
  assert.equal(t?.protocol, 'http/json');
  assert.equal(t?.serviceName, 'hookline');
  assert.equal(t?.sampler, 'parentbased_always_on');
});

test('what cannot be used is refused at start, naming the variable', () => {
  const e = 'http://c:4318';
  assert.throws(() => readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), /PROTOCOL/);
  assert.throws(() => readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://c' }), /OTEL_EXPORTER_OTLP_ENDPOINT/);
  assert.throws(() => readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_TRACES_SAMPLER: 'sometimes' }), /SAMPLER/);
  assert.throws(
    () =>
      readTracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: e,
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      }),
    /SAMPLER_ARG/,
  );
  assert.throws(
    () => readTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }),
    /HEADERS/,
  );
});
