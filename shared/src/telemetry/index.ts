// What the apps use of telemetry/. Inside shared/src, import the files themselves.
export { tracingConfigFrom } from './config';
export { createSpanExporter } from './exporter';
export { principalAttributes } from './gen-ai';
export { httpServerAttributes } from './http';
export { NO_SPAN, type Span, type SpanData } from './span';
export { PASSTHROUGH_TRACER, type Tracer } from './tracer';
export { switchableTracer, tracerFor, tracingConfigFromSettings } from './tracing';
