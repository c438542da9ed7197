import type { TracingConfig } from './config';
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
