import * as z from 'zod';

/** USD per million tokens. */
const usdPerMtok = z.number().nonnegative().max(1_000_000);

/**
 * A price-table key: the upstream model name as routes send it, compared case-insensitively
 * and so stored lower-cased. Slashes are allowed (host namespaces like `meta-llama/...`).
 */
export const priceModelSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^\S+$/, 'must not contain whitespace')
  .transform((name) => name.toLowerCase());

/** PUT body: the whole entry (create or replace). Unknown fields are a 422. */
export const priceInputSchema = z.strictObject({
  /** openai, anthropic, google, mistral, meta, ...: for display and filtering only. */
  vendor: z.string().min(1).max(100).regex(/^\S+$/, 'must not contain whitespace'),
  input_price_per_mtok: usdPerMtok,
  output_price_per_mtok: usdPerMtok,
  /** Null or absent: cached input tokens are billed at the input price. */
  cached_input_price_per_mtok: usdPerMtok.nullable().default(null),
  /** Null or absent: prompt-cache writes are billed at the input price. */
  cache_write_price_per_mtok: usdPerMtok.nullable().default(null),
  /** Null or absent: one-hour cache writes are billed at the (five-minute) write price. */
  cache_write_1h_price_per_mtok: usdPerMtok.nullable().default(null),
});
export type PriceInput = z.infer<typeof priceInputSchema>;
