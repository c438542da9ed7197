/**
 * Declarative parameter mapping (the good part of Portkey's provider configs): every adapter
 * lists how canonical fields become vendor fields — name or dotted path, default, clamp,
 * transform — and one function applies the list. The conversation itself (messages, system)
 * stays as code in each adapter's request-messages.ts.
 */
import { asRecord } from './json';

type Present<T> = Exclude<T, undefined | null>;

/** One rule per canonical field; `transform` sees the field's own type. */
export type ParamRule<Source> = {
  [Key in keyof Source]-?: {
    from: Key;
    /** Vendor field name; dotted paths nest ("metadata.user_id"). */
    to: string;
    default?: Present<Source[Key]>;
    /** Clamp numbers into the vendor's accepted range instead of letting it reject the call. */
    min?: number;
    max?: number;
    transform?: (value: Present<Source[Key]>) => unknown;
  };
}[keyof Source];

/** The transform for list fields vendors refuse empty (`stop`): an empty list is left out. */
export function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined;
}

function clamp(value: unknown, min: number | undefined, max: number | undefined): unknown {
  if (typeof value !== 'number') return value;
  let out = value;
  if (min !== undefined && out < min) out = min;
  if (max !== undefined && out > max) out = max;
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const child = asRecord(node[key]) ?? {};
    node[key] = child;
    node = child;
  }
  node[keys[keys.length - 1] ?? path] = value;
}

/** Applies the rules; absent fields without a default are left out of the body entirely. */
export function applyParamMap<Source extends object>(
  source: Source,
  rules: ReadonlyArray<ParamRule<Source>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const rule of rules) {
    const raw = source[rule.from] ?? rule.default;
    if (raw === undefined || raw === null) continue;
    // The rule union is keyed per field, so `transform` matches `raw`'s field type.
    const transform = rule.transform as ((value: unknown) => unknown) | undefined;
    const value = clamp(transform ? transform(raw) : raw, rule.min, rule.max);
    if (value !== undefined) setPath(out, rule.to, value);
  }
  return out;
}
