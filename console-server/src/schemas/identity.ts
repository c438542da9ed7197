import { z } from '@hono/zod-openapi';
import { USER_ROLES } from '@sluice/shared/db/schema';

/** Response shapes of the setup and auth endpoints (docs/users-and-auth.md), field for field. */
export const UserViewSchema = z
  .object({ id: z.uuid(), email: z.string(), display_name: z.string(), role: z.enum(USER_ROLES) })
  .openapi('UserView');

export const UserDetailSchema = UserViewSchema.extend({
  created_at: z.string(),
  updated_at: z.string(),
}).openapi('UserDetail');

export const RegisteredUserSchema = UserViewSchema.extend({ created_at: z.string() }).openapi(
  'RegisteredUser',
);

export const TokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
  })
  .openapi('TokenPair');

export const TokenResponseSchema = TokenPairSchema.extend({ user: UserViewSchema }).openapi('TokenResponse');

export const SetupStatusSchema = z
  .object({
    initialized: z.boolean(),
    needs_setup: z.boolean(),
    site_name: z.string().openapi({
      description: 'The setting site_name: public, so the sign-in page and the browser tab show it',
    }),
    gateway_base_url: z.string().openapi({
      description:
        'The setting gateway_base_url ("" when unknown): where clients reach the gateway, shown with new keys',
    }),
  })
  .openapi('SetupStatus');

const latency = z.number().nullable();
const serviceState = z.enum(['ok', 'error']);
export const ConsoleHealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    pg_latency_ms: latency,
    redis_latency_ms: latency,
    clickhouse_latency_ms: latency,
    pool_idle: z.number().int(),
    pool_active: z.number().int(),
    uptime_seconds: z.number().int(),
    services: z.object({ postgres: serviceState, redis: serviceState, clickhouse: serviceState }),
  })
  .openapi('ConsoleHealth');
