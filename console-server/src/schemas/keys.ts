import { z } from '@hono/zod-openapi';
import { API_KEY_STATUSES } from '@sluice/shared/db/schema';
import { listSchema } from './page';

/**
 * Response shapes of /api/keys (docs/keys.md), field for field. allowed_models is null for
 * "every model" (never []); rate_limit_rpm null is unlimited; expires_at null never expires.
 */
const allowedModels = z
  .array(z.string())
  .nullable()
  .openapi({ description: 'Models the key may use; null means every model' });
const rateLimitRpm = z
  .number()
  .int()
  .nullable()
  .openapi({ description: 'Requests per minute; null is unlimited' });
const timestamp = z.string().openapi({ format: 'date-time' });
const nullableTimestamp = timestamp.nullable();
const days = z.number().int().nullable();

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'Leading characters of the key, for identification' }),
    allowed_models: allowedModels,
    rate_limit_rpm: rateLimitRpm,
    expires_at: nullableTimestamp,
    created_at: timestamp,
    last_used_at: nullableTimestamp,
    status: z.enum(API_KEY_STATUSES).openapi({
      description: 'active, disabled (inactivity) or expired; revoked keys are not returned',
    }),
    rotation_interval_days: days.openapi({ description: 'Automatic rotation period; null: none' }),
    inactivity_timeout_days: days.openapi({ description: 'Disabled after this long unused; null: never' }),
  })
  .openapi('ApiKey');

export const ApiKeyPageSchema = listSchema(ApiKeySchema, 'ApiKeyPage');

export const CreatedApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key: z.string().openapi({ description: 'The secret; returned only here and by rotate' }),
    allowed_models: allowedModels,
    rate_limit_rpm: rateLimitRpm,
    expires_at: nullableTimestamp,
    created_at: timestamp,
  })
  .openapi('CreatedApiKey');

export const UpdatedApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    allowed_models: allowedModels,
    rate_limit_rpm: rateLimitRpm,
    expires_at: nullableTimestamp,
    rotation_interval_days: days,
    inactivity_timeout_days: days,
    updated_at: timestamp,
  })
  .openapi('UpdatedApiKey');

export const RotatedApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key: z.string().openapi({ description: 'The new secret; returned only once' }),
    grace_period_ends_at: timestamp.openapi({ description: 'The old value is accepted until then' }),
    rotated_at: timestamp,
  })
  .openapi('RotatedApiKey');

export const ExpiringApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    expires_at: timestamp,
    days_remaining: z.number().int().openapi({ description: 'Whole days left, rounded up' }),
    owner_email: z.string(),
  })
  .openapi('ExpiringApiKey');

export const ExpiringApiKeyPageSchema = listSchema(ExpiringApiKeySchema, 'ExpiringApiKeyPage');

export const AdminApiKeyPageSchema = listSchema(
  ApiKeySchema.extend({
    status: z.enum(API_KEY_STATUSES),
    user_id: z.uuid(),
    owner_email: z.string(),
  }).openapi('AdminApiKey'),
  'AdminApiKeyPage',
);
