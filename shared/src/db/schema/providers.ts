import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

export const PROVIDER_TYPES = ['openai', 'anthropic', 'google', 'azure_openai', 'bedrock', 'custom'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** What a model does: chat (the three chat endpoints) or embeddings (POST /v1/embeddings). */
export const MODEL_KINDS = ['chat', 'embedding'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** How a request picks its first route (routing/route-order.ts); the others stay its fallbacks. */
export const ROUTING_STRATEGIES = ['ordered', 'weighted', 'least_latency'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];

export const providers = pgTable(
  'providers',
  {
    id: id(),
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    providerType: text('provider_type').$type<ProviderType>().notNull(),
    baseUrl: text('base_url').notNull(),
    /** AES-256-GCM ciphertext (versioned); never returned. */
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    /** Provider-type specific options (API version, region, deployment map). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('providers_name_key').on(t.name),
    check(
      'providers_type_check',
      sql`${t.providerType} in ('openai','anthropic','google','azure_openai','bedrock','custom')`,
    ),
  ],
);

/** A model name clients send, with its token weights and prices. */
export const models = pgTable(
  'models',
  {
    id: id(),
    name: text('name').notNull(),
    kind: text('kind').$type<ModelKind>().notNull().default('chat'),
    strategy: text('strategy').$type<RoutingStrategy>().notNull().default('ordered'),
    inputWeight: numeric('input_weight', { mode: 'number' }).notNull().default(1),
    outputWeight: numeric('output_weight', { mode: 'number' }).notNull().default(1),
    /** USD per 1M tokens; null means unpriced. */
    inputPricePerMtok: numeric('input_price_per_mtok', { mode: 'number' }),
    outputPricePerMtok: numeric('output_price_per_mtok', { mode: 'number' }),
    /** Null: cached input tokens are billed at the input price. */
    cachedInputPricePerMtok: numeric('cached_input_price_per_mtok', { mode: 'number' }),
    /** Prompt-cache writes (five-minute lifetime); null: billed at the input price. */
    cacheWritePricePerMtok: numeric('cache_write_price_per_mtok', { mode: 'number' }),
    /** Prompt-cache writes with a one-hour lifetime; null: at the five-minute write price. */
    cacheWrite1hPricePerMtok: numeric('cache_write_1h_price_per_mtok', { mode: 'number' }),
    /**
     * The most output the model may produce: the cap sent to vendors that need one when the
     * client sets none. Null: the known limit of each route's upstream model (routing/output-caps.ts).
     */
    maxOutputTokens: integer('max_output_tokens'),
    /**
     * Place prompt-cache breakpoints (tools, system, the conversation's last turns) on requests
     * that carry none, for vendors whose caching needs them (Anthropic, Bedrock).
     */
    cacheBreakpoints: boolean('cache_breakpoints').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('models_name_key').on(t.name),
    check('models_kind_check', sql`${t.kind} in ('chat','embedding')`),
    check('models_strategy_check', sql`${t.strategy} in ('ordered','weighted','least_latency')`),
  ],
);

/** Ordered upstream routes of a model; tried by ascending position. */
export const modelRoutes = pgTable(
  'model_routes',
  {
    id: id(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
    upstreamModel: text('upstream_model').notNull(),
    position: integer('position').notNull(),
    rpmCap: integer('rpm_cap'),
    tpmCap: integer('tpm_cap'),
    weight: integer('weight').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('model_routes_model_idx').on(t.modelId, t.position)],
);
