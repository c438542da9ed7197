import * as z from 'zod';
import { MODEL_KINDS, ROUTING_STRATEGIES } from '../db/schema/providers';

const INT4_MAX = 2_147_483_647;
const MAX_ROUTES = 32;

/** What clients send as `model`; whitespace would make it unaddressable in allowed_models lists. */
export const modelNameSchema = z.string().min(1).max(200).regex(/^\S+$/, 'must not contain whitespace');

const positiveInt = z.number().int().positive().max(INT4_MAX);
/** Token weights multiply counted tokens for limits; zero would make a model free of limits. */
const tokenWeight = z.number().positive().max(1_000_000);
/** USD per million tokens; null marks the model unpriced (the price table may still price it). */
export const price = z.number().nonnegative().max(1_000_000).nullable();

/** The most output tokens a model may be asked for: above every vendor's limit today. */
export const MAX_OUTPUT_TOKENS_LIMIT = 2_000_000;
/** The cap sent to vendors that need one when the client sets none; null: each route's upstream model's known limit. */
const maxOutputTokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS_LIMIT).nullable();

/** chat: the chat endpoints; embedding: POST /v1/embeddings. A request to the other is a 400. */
export const modelKindSchema = z.enum(MODEL_KINDS);

/** ordered: by position; weighted: the first route drawn by weight; least_latency: the fastest seen. */
export const routingStrategySchema = z.enum(ROUTING_STRATEGIES);

export const routeInputSchema = z.object({
  provider_id: z.uuid(),
  upstream_model: z.string().min(1).max(200).regex(/^\S+$/, 'must not contain whitespace'),
  rpm_cap: positiveInt.nullable().default(null),
  tpm_cap: positiveInt.nullable().default(null),
  weight: positiveInt.default(1),
  is_active: z.boolean().default(true),
});
export type RouteInput = z.infer<typeof routeInputSchema>;

/** Position is the array index: the first route is tried first. */
export const routeListSchema = z.array(routeInputSchema).max(MAX_ROUTES);

export const createModelInputSchema = z.object({
  name: modelNameSchema,
  kind: modelKindSchema.default('chat'),
  strategy: routingStrategySchema.default('ordered'),
  input_weight: tokenWeight.default(1),
  output_weight: tokenWeight.default(1),
  input_price_per_mtok: price.default(null),
  output_price_per_mtok: price.default(null),
  /** Null: cached input tokens are billed at the input price. */
  cached_input_price_per_mtok: price.default(null),
  /** Null: prompt-cache writes are billed at the input price. */
  cache_write_price_per_mtok: price.default(null),
  /** Null: one-hour prompt-cache writes are billed at the (five-minute) write price. */
  cache_write_1h_price_per_mtok: price.default(null),
  max_output_tokens: maxOutputTokens.default(null),
  /** Place prompt-cache breakpoints for clients of other formats on Anthropic/Bedrock routes. */
  cache_breakpoints: z.boolean().default(true),
  is_active: z.boolean().default(true),
  routes: routeListSchema.default([]),
});
export type CreateModelInput = z.infer<typeof createModelInputSchema>;

/** Strict: a misspelt field is a 422, not a silent no-op. `routes`, when present, replaces the list. */
export const updateModelInputSchema = z
  .strictObject({
    name: modelNameSchema.optional(),
    kind: modelKindSchema.optional(),
    strategy: routingStrategySchema.optional(),
    input_weight: tokenWeight.optional(),
    output_weight: tokenWeight.optional(),
    input_price_per_mtok: price.optional(),
    output_price_per_mtok: price.optional(),
    cached_input_price_per_mtok: price.optional(),
    cache_write_price_per_mtok: price.optional(),
    cache_write_1h_price_per_mtok: price.optional(),
    max_output_tokens: maxOutputTokens.optional(),
    cache_breakpoints: z.boolean().optional(),
    is_active: z.boolean().optional(),
    routes: routeListSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateModelInput = z.infer<typeof updateModelInputSchema>;

export const replaceRoutesInputSchema = z.strictObject({ routes: routeListSchema });
export type ReplaceRoutesInput = z.infer<typeof replaceRoutesInputSchema>;
