import type { PassthroughPlan, WireFormat } from '../../canonical/ports';
import type { NativeStreamOutcome, NativeUsageReader } from './native-usage-reader';

/** A WireFormat plus the passthrough usage tap every public format here provides. */
export interface WireFormatWithUsageTap extends WireFormat {
  /** Taps this format's native SSE bytes (same-format passthrough) for usage, as the plan says. */
  createNativeUsageReader(plan?: PassthroughPlan): NativeUsageReader;
  /** Reads a copy of this format's native SSE bytes for usage (see watchNativeUsage). */
  watchNativeUsage(copy: ReadableStream<Uint8Array>, onChunk?: () => void): Promise<NativeStreamOutcome>;
}
