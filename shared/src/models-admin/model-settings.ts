import type { CreateModelInput, UpdateModelInput } from './schemas';

/** The scalar fields of a model besides its name: what an audit record shows of a change. */
const SETTINGS = [
  'kind',
  'strategy',
  'input_weight',
  'output_weight',
  'input_price_per_mtok',
  'output_price_per_mtok',
  'cached_input_price_per_mtok',
  'cache_write_price_per_mtok',
  'cache_write_1h_price_per_mtok',
  'max_output_tokens',
  'cache_breakpoints',
  'is_active',
] as const satisfies ReadonlyArray<keyof CreateModelInput & keyof UpdateModelInput>;

type Setting = (typeof SETTINGS)[number];

/**
 * The settings the input gives, as given (none of them secret): every one for a creation, the
 * changed ones for an update. The name and routes are audited on their own.
 */
export function modelSettings(input: CreateModelInput | UpdateModelInput): {
  settings: Partial<Record<Setting, unknown>>;
} {
  const settings: Partial<Record<Setting, unknown>> = {};
  for (const field of SETTINGS) {
    if (input[field] !== undefined) settings[field] = input[field];
  }
  return { settings };
}
