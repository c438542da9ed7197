import * as z from 'zod';
import { displayNameSchema, httpUrlSchema, providerInputSchema } from '../auth/sign-in/schemas';

/**
 * Per-type options the adapters read (shared/src/providers/*): Bedrock needs `region`;
 * Azure takes `api_version` and a `deployment` (or a `deployments` map from upstream model
 * to deployment); OpenAI-compatible types may pick `max_tokens_field`, and `api`: which OpenAI
 * API translated requests go to (openai: Responses by default; azure_openai, custom: Chat
 * Completions). Not secret.
 */
export const providerConfigSchema = z.strictObject({
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region such as us-east-1')
    .optional(),
  api_version: z.string().min(1).max(64).optional(),
  deployment: z.string().min(1).max(256).optional(),
  deployments: z.record(z.string().min(1).max(200), z.string().min(1).max(256)).optional(),
  max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  api: z.enum(['chat_completions', 'responses']).optional(),
});
export type ProviderConfig = z.infer<typeof providerConfigSchema>;

/** Same rules as the provider given at setup (all five fields required), plus `config`. */
export const createProviderInputSchema = providerInputSchema.extend({
  config: providerConfigSchema.default({}),
});
export type CreateProviderInput = z.infer<typeof createProviderInputSchema>;

/** name and provider_type are fixed: the name is how clients address the provider directly. */
export const updateProviderInputSchema = z
  .strictObject({
    display_name: displayNameSchema.optional(),
    base_url: httpUrlSchema.optional(),
    is_active: z.boolean().optional(),
    api_key: providerInputSchema.shape.api_key.optional(),
    /** Replaces the whole config object. */
    config: providerConfigSchema.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateProviderInput = z.infer<typeof updateProviderInputSchema>;
