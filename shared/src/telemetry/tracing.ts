import { type TracingConfig, tracingConfigFrom } from './config';
import { createSpanExporter } from './exporter';
import { createSampler } from './sampler';
import { createTracer, PASSTHROUGH_TRACER, type Tracer } from './tracer';

export const TRACER_SCOPE = { name: 'sluice', version: '0.1.0' };

/** The tracer a config describes (or the passthrough one when tracing is off). */
export function tracerFor(
  config: TracingConfig | null,
  deps: { fetch: typeof fetch; onDropped(count: number, reason: string): void },
): Tracer {
  if (config === null) return PASSTHROUGH_TRACER;
  const exporter = createSpanExporter({
    ...config,
    scope: TRACER_SCOPE,
    fetch: deps.fetch,
    onDropped: deps.onDropped,
  });
  return createTracer(exporter, createSampler(config.sampler, config.samplerArg));
}

/** What the console's settings say of tracing (otel_* in the system category). */
export interface TracingSettings {
  endpoint: string;
  protocol: string;
  /** Clear (unsealed) `key=value,…`. */
  headers: string;
  samplerRatio: number;
  captureContent: boolean;
}

/**
 * The console's tracing settings read as the OTEL_* variables would be (an edge deployment
 * has no environment of its own to set them in): parent-based ratio sampling.
 */
export function tracingConfigFromSettings(
  settings: TracingSettings,
  service: { serviceName: string; serviceVersion: string },
): TracingConfig | null {
  return tracingConfigFrom(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: settings.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: settings.protocol,
      OTEL_EXPORTER_OTLP_HEADERS: settings.headers,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(settings.samplerRatio),
      SLUICE_OTEL_CAPTURE_CONTENT: String(settings.captureContent),
    },
    service,
  );
}

/** A tracer whose config can change while it runs: each span starts on the current one. */
export function switchableTracer(build: (config: TracingConfig | null) => Tracer): {
  tracer: Tracer;
  use(config: TracingConfig | null): boolean;
} {
  let current = build(null);
  let shape = 'null';
  const tracer: Tracer = {
    get enabled() {
      return current.enabled;
    },
    start: (name, kind, options) => current.start(name, kind, options),
  };
  return {
    tracer,
    use(config) {
      const next = JSON.stringify(config);
      if (next === shape) return false;
      shape = next;
      current = build(config);
      return true;
    },
  };
}
