import { SAMPLED, type SpanContext } from './trace-context';

/** Whether a new root or child-of-remote span is recorded and exported. */
export type Sampler = (traceId: string, parent: SpanContext | null) => boolean;

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

export const SAMPLER_NAMES: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/**
 * The ratio sampler of the OpenTelemetry SDKs: a trace is kept when the low 56 bits of its id
 * (the random part W3C level 2 promises) fall below ratio × 2^56, so every service that samples
 * a trace id at the same ratio makes the same decision.
 */
function ratioSampler(ratio: number): Sampler {
  const bounded = Math.min(1, Math.max(0, Number.isFinite(ratio) ? ratio : 1));
  const threshold = BigInt(Math.floor(bounded * 2 ** 56));
  return (traceId) => bounded >= 1 || BigInt(`0x${traceId.slice(18)}`) < threshold;
}

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the OpenTelemetry SDKs read them. */
export function createSampler(name: SamplerName, arg: number | undefined): Sampler {
  const root: Sampler = name.endsWith('always_on')
    ? () => true
    : name.endsWith('always_off')
      ? () => false
      : ratioSampler(arg ?? 1);
  if (!name.startsWith('parentbased_')) return root;
  return (traceId, parent) => (parent === null ? root(traceId, null) : (parent.flags & SAMPLED) !== 0);
}
