import * as z from 'zod';
import { SAMPLER_NAMES, type SamplerName } from './sampler';
import type { AttributeValue } from './span';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Tracing as the OTEL_* environment variables (or the console's settings) configure it. */
export interface TracingConfig {
  /** The full traces URL (…/v1/traces). */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  compression: 'gzip' | 'none';
  /** Longest one export may take before it is given up (OTEL_EXPORTER_OTLP_TIMEOUT). */
  timeoutMs: number;
  /** How long ended spans wait to be sent with others (OTEL_BSP_SCHEDULE_DELAY). */
  delayMs: number;
  /** Spans held at most; more are dropped (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueue: number;
  /** Spans per export at most (OTEL_BSP_MAX_EXPORT_BATCH_SIZE). */
  maxBatch: number;
  sampler: SamplerName;
  samplerArg: number | undefined;
  resource: Record<string, AttributeValue>;
  /** SLUICE_OTEL_CAPTURE_CONTENT: message content on spans (redaction rules applied). */
  captureContent: boolean;
}

const positiveInt = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .transform((v) => v ?? fallback);

const Env = z.object({
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).optional(),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_COMPRESSION: z.enum(['gzip', 'none']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: z.enum(['gzip', 'none']).optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: positiveInt(10_000),
  OTEL_BSP_SCHEDULE_DELAY: positiveInt(1_000),
  OTEL_BSP_MAX_QUEUE_SIZE: positiveInt(2_048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: positiveInt(512),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLER_NAMES as [SamplerName, ...SamplerName[]]).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  SLUICE_OTEL_CAPTURE_CONTENT: z.enum(['true', 'false']).optional(),
});

/** `key=value,key2=value2`, values percent-encoded (the W3C baggage form the SDKs read). */
export function parseKeyValueList(list: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (list ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const raw = part.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    if (key) out[key] = value;
  }
  return out;
}

function tracesUrl(env: z.infer<typeof Env>): string | null {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * The tracing config the variables describe, or null when tracing is off (no endpoint, the
 * SDK disabled, or the traces exporter set to none). A value that is set but wrong throws, so
 * a deployment learns at its start rather than by missing traces.
 */
export function tracingConfigFrom(
  variables: Record<string, unknown>,
  defaults: { serviceName: string; serviceVersion: string },
): TracingConfig | null {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(Env.shape)) {
    const value = variables[key];
    if (typeof value === 'string' && value.trim() !== '') picked[key] = value.trim();
  }
  const parsed = Env.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid ${String(issue?.path[0] ?? 'OTEL setting')}: ${issue?.message ?? 'invalid'}`);
  }
  const env = parsed.data;
  const url = tracesUrl(env);
  if (url === null || env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return null;
  const resource: Record<string, AttributeValue> = {
    ...parseKeyValueList(env.OTEL_RESOURCE_ATTRIBUTES),
    'service.name': env.OTEL_SERVICE_NAME ?? defaults.serviceName,
    'service.version': defaults.serviceVersion,
    'telemetry.sdk.name': 'sluice',
    'telemetry.sdk.language': 'js',
  };
  return {
    url,
    protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    headers: {
      ...parseKeyValueList(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseKeyValueList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    compression: env.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION ?? env.OTEL_EXPORTER_OTLP_COMPRESSION ?? 'none',
    timeoutMs: env.OTEL_EXPORTER_OTLP_TIMEOUT,
    delayMs: env.OTEL_BSP_SCHEDULE_DELAY,
    maxQueue: env.OTEL_BSP_MAX_QUEUE_SIZE,
    maxBatch: Math.min(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, env.OTEL_BSP_MAX_QUEUE_SIZE),
    sampler: env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
    samplerArg: env.OTEL_TRACES_SAMPLER_ARG,
    resource,
    captureContent: env.SLUICE_OTEL_CAPTURE_CONTENT === 'true',
  };
}
