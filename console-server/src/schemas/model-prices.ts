import { z } from '@hono/zod-openapi';
import { listSchema } from './page';

const usd = (description: string) => z.number().openapi({ description });

/** Prompt-cache write prices: on the price table, on models and in effective prices alike. */
export const cacheWritePrice = z.number().nullable().openapi({
  description: 'USD per 1M input tokens written to the prompt cache; null: billed at the input price',
});
export const cacheWrite1hPrice = z.number().nullable().openapi({
  description:
    'USD per 1M input tokens written to the prompt cache with a one-hour lifetime; null: billed at cache_write_price_per_mtok',
});

/** One price-table entry. */
export const ModelPriceSchema = z
  .object({
    model: z.string().openapi({ description: 'Upstream model name, lower-cased', example: 'gpt-4o' }),
    vendor: z.string().openapi({ example: 'openai' }),
    input_price_per_mtok: usd('USD per 1M input tokens'),
    output_price_per_mtok: usd('USD per 1M output tokens'),
    cached_input_price_per_mtok: z
      .number()
      .nullable()
      .openapi({ description: 'USD per 1M cached input tokens; null: billed at the input price' }),
    cache_write_price_per_mtok: cacheWritePrice,
    cache_write_1h_price_per_mtok: cacheWrite1hPrice,
    updated_at: z.string(),
  })
  .openapi('ModelPrice');

export const ModelPricePageSchema = listSchema(ModelPriceSchema, 'ModelPricePage');

/** Where a model's (or route's) price comes from, and what it is. */
export const EffectivePriceSchema = z
  .object({
    source: z.enum(['model', 'price_table', 'none']).openapi({
      description:
        "model: the model's own prices; price_table: the entry matching the route's upstream model; " +
        'none: requests are logged unpriced (cost null)',
    }),
    input_price_per_mtok: z.number().nullable(),
    output_price_per_mtok: z.number().nullable(),
    cached_input_price_per_mtok: z.number().nullable(),
    cache_write_price_per_mtok: cacheWritePrice,
    cache_write_1h_price_per_mtok: cacheWrite1hPrice,
    price_table_model: z.string().nullable().openapi({ description: 'The matched entry (price_table only)' }),
  })
  .openapi('EffectivePrice');

export const PriceModelParams = z.object({
  model: z.string().openapi({
    param: { name: 'model', in: 'path' },
    description: 'Upstream model name (percent-encode a slash)',
    example: 'gpt-4o',
  }),
});
