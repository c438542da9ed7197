import { describe, expect, it } from 'vitest';
import { parseKeyValueList, tracingConfigFrom } from './config';

const SERVICE = { serviceName: 'sluice-gateway', serviceVersion: '0.1.0' };

describe('tracing config from the OTEL_* variables', () => {
  it('is off without an endpoint, with the SDK disabled, or the exporter set to none', () => {
    expect(tracingConfigFrom({}, SERVICE)).toBeNull();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingConfigFrom({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, SERVICE)).toBeNull();
    expect(tracingConfigFrom({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, SERVICE)).toBeNull();
  });

  it('reads the endpoint, headers, protocol, sampler and resource as the SDKs do', () => {
    const config = tracingConfigFrom(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%20def,x-team=ai',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
        OTEL_SERVICE_NAME: 'edge-gateway',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
      },
      SERVICE,
    );
    expect(config).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/json',
      headers: { 'api-key': 'abc def', 'x-team': 'ai' },
      sampler: 'parentbased_traceidratio',
      samplerArg: 0.5,
      captureContent: false,
      resource: { 'service.name': 'edge-gateway', 'deployment.environment': 'prod' },
    });
  });

  it('takes the traces endpoint as it is and its own settings over the general ones', () => {
    const config = tracingConfigFrom(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      },
      SERVICE,
    );
    expect(config?.url).toBe('http://traces:9999/custom');
    expect(config?.protocol).toBe('http/protobuf');
    expect(config?.resource['service.name']).toBe('sluice-gateway');
  });

  it('refuses a value it cannot use, naming the variable', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(() => tracingConfigFrom({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, SERVICE)).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => tracingConfigFrom({ ...endpoint, OTEL_TRACES_SAMPLER_ARG: '2' }, SERVICE)).toThrow(
      /OTEL_TRACES_SAMPLER_ARG/,
    );
    expect(() => tracingConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, SERVICE)).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });

  it('reads key=value lists, skipping what is not one', () => {
    expect(parseKeyValueList('a=1, b = two ,junk,=x,c=%E2%9C%93')).toEqual({ a: '1', b: 'two', c: '✓' });
  });
});
