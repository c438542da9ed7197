import { z } from 'zod';
import { displayNameSchema, httpUrlSchema, providerInputSchema } from '../identity/schemas';

/** Same rules as the provider given at setup: all five fields required. */
export const createProviderInputSchema = providerInputSchema;
export type CreateProviderInput = z.infer<typeof createProviderInputSchema>;

/** name and provider_type are fixed: the name is how clients address the provider directly. */
export const updateProviderInputSchema = z
  .strictObject({
    display_name: displayNameSchema.optional(),
    base_url: httpUrlSchema.optional(),
    is_active: z.boolean().optional(),
    api_key: providerInputSchema.shape.api_key.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'at least one field is required');
export type UpdateProviderInput = z.infer<typeof updateProviderInputSchema>;
