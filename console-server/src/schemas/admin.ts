import { z } from '@hono/zod-openapi';
import { MODEL_KINDS, PROVIDER_TYPES, ROUTING_STRATEGIES, USER_ROLES } from '@sluice/shared/db/schema';
import { MAX_OUTPUT_TOKENS_LIMIT } from '@sluice/shared/models-admin';
import { cacheWrite1hPrice, cacheWritePrice, EffectivePriceSchema } from './model-prices';
import { listSchema } from './page';

/** Response shapes of the admin users, providers and models endpoints. */
export const AdminUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    display_name: z.string(),
    role: z.enum(USER_ROLES),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AdminUser');

export const AdminUserPageSchema = listSchema(AdminUserSchema, 'AdminUserPage');

/** api_key is write-only: it is deliberately absent here. */
export const ProviderSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    display_name: z.string(),
    provider_type: z.enum(PROVIDER_TYPES),
    base_url: z.string(),
    config: z.record(z.string(), z.unknown()),
    is_active: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Provider');

export const ProviderPageSchema = listSchema(ProviderSchema, 'ProviderPage');

export const ModelRouteSchema = z
  .object({
    id: z.uuid(),
    provider_id: z.uuid(),
    provider_name: z.string(),
    upstream_model: z.string(),
    position: z.number().int().openapi({ description: 'Tried in ascending order, from 0' }),
    rpm_cap: z.number().int().nullable().openapi({ description: 'Requests per sliding minute; null: none' }),
    tpm_cap: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Weighted tokens per sliding minute; null: none' }),
    weight: z.number().int(),
    is_active: z.boolean(),
    effective_price: EffectivePriceSchema,
  })
  .openapi('ModelRoute');

export const ModelSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    strategy: z.enum(ROUTING_STRATEGIES).openapi({
      description:
        "How a request picks its first route: ordered (by position), weighted (drawn by the routes' weight), least_latency (the fastest the gateway has seen); the others stay its fallbacks in position order",
    }),
    kind: z.enum(MODEL_KINDS).openapi({
      description:
        'chat: the chat endpoints; embedding: POST /v1/embeddings (a request to the other is a 400)',
    }),
    input_weight: z.number(),
    output_weight: z.number(),
    input_price_per_mtok: z.number().nullable(),
    output_price_per_mtok: z.number().nullable(),
    cached_input_price_per_mtok: z
      .number()
      .nullable()
      .openapi({ description: 'Null: cached input tokens are billed at the input price' }),
    cache_write_price_per_mtok: cacheWritePrice,
    cache_write_1h_price_per_mtok: cacheWrite1hPrice,
    max_output_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS_LIMIT).nullable().openapi({
      description:
        "The output cap sent to vendors that need one when the client sets none; null: the known limit of each route's upstream model",
    }),
    cache_breakpoints: z.boolean().openapi({
      description:
        'Place prompt-cache breakpoints (tools, system, the last stable turn) for clients of other formats on Anthropic/Bedrock routes',
    }),
    is_priced: z.boolean().openapi({
      description: "Requests get a cost: the model's own prices, or a price-table entry (effective_price)",
    }),
    effective_price: EffectivePriceSchema.openapi({
      description: 'What requests on the first active route are billed at, and where that comes from',
    }),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    routes: z.array(ModelRouteSchema),
  })
  .openapi('Model');

export const ModelPageSchema = listSchema(ModelSchema, 'ModelPage');

export const RouteHealthSchema = z
  .object({
    route_id: z.uuid(),
    model: z.string(),
    provider: z.string(),
    upstream_model: z.string(),
    state: z.enum(['failing', 'benched', 'probation']).openapi({
      description:
        'failing: failures counted, not benched; benched: skipped without an upstream call; probation: off the bench, one failure benches it again for twice as long',
    }),
    failures: z.number().int().openapi({ description: 'Failures in the current window' }),
    bench_level: z.number().int().openapi({ description: 'Benches in a row (the cool-down doubles each)' }),
    benched_until: z
      .string()
      .nullable()
      .openapi({ description: 'When the bench ends; null when not benched' }),
  })
  .openapi('RouteHealth');

export const RouteHealthListSchema = z.array(RouteHealthSchema).openapi('RouteHealthList');
