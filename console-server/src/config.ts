import { parseEnv, storeEnvSchema } from '@sluice/shared/config';
import { parseRedisUrl } from '@sluice/shared/stores';
import * as z from 'zod';

/**
 * The console's environment: the store settings both apps read, except that its Redis is either
 * REDIS_URL (Redis itself, over TCP: self-hosted) or Upstash's REST API (UPSTASH_REDIS_REST_URL
 * and _TOKEN: the Cloudflare deployment). REDIS_URL wins when both are set.
 */
export const consoleEnvSchema = storeEnvSchema
  .extend({
    REDIS_URL: z
      .string()
      .trim()
      .transform((value) => (value === '' ? undefined : value))
      .optional(),
    UPSTASH_REDIS_REST_URL: z.url('UPSTASH_REDIS_REST_URL must be a URL').optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.REDIS_URL !== undefined) {
      try {
        parseRedisUrl(env.REDIS_URL);
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: (error as Error).message });
      }
      return;
    }
    if (!env.UPSTASH_REDIS_REST_URL || !env.UPSTASH_REDIS_REST_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message: 'set REDIS_URL, or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN',
      });
    }
  });

export type ConsoleConfig = z.infer<typeof consoleEnvSchema>;

export function parseConsoleEnv(env: Record<string, unknown>): ConsoleConfig {
  return parseEnv(consoleEnvSchema, env);
}
