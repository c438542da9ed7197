import * as z from 'zod';
import { PROVIDER_TYPES } from '../../db/schema/providers';

export const emailSchema = z
  .email('must be a valid email address')
  .max(254)
  .transform((e) => e.toLowerCase());
export const passwordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(256, 'must be at most 256 characters');
export const displayNameSchema = z.string().trim().min(1).max(100);
export const httpUrlSchema = z.url().refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const providerInputSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lowercase slug'),
  display_name: displayNameSchema,
  provider_type: z.enum(PROVIDER_TYPES),
  base_url: httpUrlSchema,
  api_key: z.string().min(1).max(4096),
});

export const setupInputSchema = z.object({
  admin: z.object({ email: emailSchema, display_name: displayNameSchema, password: passwordSchema }),
  provider: providerInputSchema.optional(),
});
export type SetupInput = z.infer<typeof setupInputSchema>;

export const loginInputSchema = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const registerInputSchema = z.object({
  email: emailSchema,
  display_name: displayNameSchema,
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const refreshInputSchema = z.object({ refresh_token: z.string().min(1).max(512) });
