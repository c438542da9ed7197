import { numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, updatedAt } from './columns';

/**
 * The price table: USD per 1M tokens of a vendor model, keyed by the upstream model name.
 * Seeded by a migration with the common models of the five vendor families; admins edit it in
 * the console. A configured model's own prices, when set, win over this table.
 */
export const modelPrices = pgTable(
  'model_prices',
  {
    id: id(),
    /** The vendor's model id as routes name it upstream, e.g. gpt-4o or claude-sonnet-4-5. */
    model: text('model').notNull(),
    /** openai, anthropic, google, mistral, meta, ... — for display and filtering only. */
    vendor: text('vendor').notNull(),
    inputPricePerMtok: numeric('input_price_per_mtok', { mode: 'number' }).notNull(),
    outputPricePerMtok: numeric('output_price_per_mtok', { mode: 'number' }).notNull(),
    /** Null: cached input tokens are billed at the input price. */
    cachedInputPricePerMtok: numeric('cached_input_price_per_mtok', { mode: 'number' }),
    /** Prompt-cache writes (five-minute lifetime); null: billed at the input price. */
    cacheWritePricePerMtok: numeric('cache_write_price_per_mtok', { mode: 'number' }),
    /** Prompt-cache writes with a one-hour lifetime; null: at the five-minute write price. */
    cacheWrite1hPricePerMtok: numeric('cache_write_1h_price_per_mtok', { mode: 'number' }),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('model_prices_model_key').on(t.model)],
);
