import type { PassthroughPlan, WireFormat } from '../../canonical/ports';
import type { NativeUsageReader } from './native-usage-reader';

/** A WireFormat plus the passthrough usage tap every public format here provides. */
export interface WireFormatWithUsageTap extends WireFormat {
  /** Taps this format's native SSE bytes (same-format passthrough) for usage, as the plan says. */
  createNativeUsageReader(plan?: PassthroughPlan): NativeUsageReader;
}
