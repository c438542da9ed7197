import * as z from 'zod';
import { pageQuerySchema } from '../db/paging';

/**
 * Request bodies of the console's API-key endpoints. Limits that depend on settings
 * (expires_in_days ≤ api_key_max_expiry_days) are checked by the domain, which has the
 * settings; everything static is here.
 */

// Upper bounds keep values inside Postgres integer columns and out of nonsense territory.
const MAX_DAYS = 36_500;
const MAX_RPM = 10_000_000;
const MAX_MODELS = 1000;

export const keyNameSchema = z.string().trim().min(1).max(100);

/** Null means every model; an empty list would be a key that can call nothing, so it is refused. */
export const allowedModelsSchema = z
  .array(z.string().trim().min(1).max(200))
  .min(1, 'must list at least one model (omit it or send null for all models)')
  .max(MAX_MODELS)
  .transform((models) => [...new Set(models)]);

export const rateLimitRpmSchema = z.number().int().min(1).max(MAX_RPM);
export const daysSchema = z.number().int().min(1).max(MAX_DAYS);

// Unknown fields are refused (422) so a misspelt option is never silently ignored.
export const createKeyInputSchema = z.strictObject({
  name: keyNameSchema,
  allowed_models: allowedModelsSchema.nullable().optional(),
  rate_limit_rpm: rateLimitRpmSchema.nullable().optional(),
  expires_in_days: daysSchema.nullable().optional(),
});
export type CreateKeyInput = z.infer<typeof createKeyInputSchema>;

/** Every field optional; null clears a setting (all models, unlimited, never expires, off). */
export const updateKeyInputSchema = z
  .strictObject({
    name: keyNameSchema.optional(),
    allowed_models: allowedModelsSchema.nullable().optional(),
    rate_limit_rpm: rateLimitRpmSchema.nullable().optional(),
    expires_in_days: daysSchema.nullable().optional(),
    rotation_interval_days: daysSchema.nullable().optional(),
    inactivity_timeout_days: daysSchema.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type UpdateKeyInput = z.infer<typeof updateKeyInputSchema>;

const DEFAULT_EXPIRING_DAYS = 7;

export const expiringQuerySchema = pageQuerySchema.extend({
  days: z.coerce.number().int().min(1).max(MAX_DAYS).default(DEFAULT_EXPIRING_DAYS),
});
