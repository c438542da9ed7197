import type { OpenSeal } from '../../canonical/ports';
import type { ReasoningVendor } from '../../canonical/types';

export type { OpenSeal };

/**
 * What a sealed block in a body passed through becomes: the vendor's own form when the route's
 * vendor issued it, nothing otherwise (reasoning of another vendor cannot be replayed to this one).
 */
export async function restoredBlock(
  sealed: string,
  field: string,
  vendor: ReasoningVendor | undefined,
  open: OpenSeal,
): Promise<Record<string, unknown> | null> {
  const opaque = await open(sealed, field);
  return opaque && opaque.vendor === vendor ? opaque.data : null;
}

/** Rebuilds a list when any item is replaced or removed; the same list when none is. */
export async function mapSealed<T>(
  items: readonly T[],
  replace: (item: T, index: number) => Promise<T | null> | undefined,
): Promise<T[] | null> {
  let out: T[] | null = null;
  for (const [i, item] of items.entries()) {
    const pending = replace(item, i);
    if (pending === undefined) {
      out?.push(item);
      continue;
    }
    out ??= items.slice(0, i);
    const replaced = await pending;
    if (replaced !== null) out.push(replaced);
  }
  return out;
}
