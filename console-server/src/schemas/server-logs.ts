import { z } from '@hono/zod-openapi';
import {
  APP_LOG_SOURCES,
  DEFAULT_SERVER_LOG_LIMIT,
  LOG_LEVEL_NAMES,
  MAX_NEEDLE_LENGTH,
  MAX_PORT,
  MAX_SERVER_LOG_LIMIT,
  MIN_PORT,
} from '@sluice/shared/logs/server';
import { isoInstant } from './mcp';
import { pageSchema } from './page';
import { statusMatchParam } from './status-match';

/** Shapes of the access-log and app-log views (GET /api/admin/access-logs, /app-logs). */

// NUL and unpaired surrogates cannot be searched for in either store.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is refused.
const STORABLE = /^[^\u0000\uD800-\uDFFF]*$/u;

const needle = (description: string) =>
  z
    .string()
    .min(1)
    .max(MAX_NEEDLE_LENGTH)
    .regex(STORABLE, 'must not contain NUL')
    .optional()
    .openapi({ description });

const paging = {
  from: isoInstant.optional().openapi({ description: 'Inclusive lower bound on created_at' }),
  to: isoInstant.optional().openapi({ description: 'Inclusive upper bound on created_at' }),
  limit: z.coerce.number().int().min(1).max(MAX_SERVER_LOG_LIMIT).default(DEFAULT_SERVER_LOG_LIMIT),
  offset: z.coerce.number().int().min(0).default(0),
};

const fromNotAfterTo = (v: { from?: string; to?: string }) =>
  !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to);
const FROM_AFTER_TO = { path: ['from'], message: 'must not be after to' };

/** GET /api/admin/access-logs query. A limit above 200 is refused (422), not clamped. */
export const AccessLogQuerySchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]{1,32}$/, 'must be an HTTP method')
      .optional()
      .openapi({ description: 'Exact HTTP method, any case (GET, post, …)' }),
    path: needle('Case-insensitive substring of the path (% and _ are literal)'),
    status_code: statusMatchParam,
    source: z
      .enum(APP_LOG_SOURCES)
      .optional()
      .openapi({ description: 'The server that answered: gateway or console' }),
    port: z.coerce.number().int().min(MIN_PORT).max(MAX_PORT).optional().openapi({
      description:
        'The port the answering server listens on (by default 3000 the gateway, 3001 the console; SLUICE_GATEWAY_PORT, SLUICE_CONSOLE_PORT)',
    }),
    user_id: z.uuid().optional().openapi({ description: 'Only requests authenticated as this user' }),
    q: needle('Free text: a case-insensitive substring of the path or the user agent'),
    ...paging,
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type AccessLogQueryParams = z.infer<typeof AccessLogQuerySchema>;

/** GET /api/admin/app-logs query. */
export const AppLogQuerySchema = z
  .object({
    level: z
      .enum(LOG_LEVEL_NAMES as [string, ...string[]])
      .optional()
      .openapi({ description: 'Minimum level: WARN lists WARN and ERROR' }),
    target: needle('Case-insensitive substring of the target (the module that logged)'),
    q: needle('Case-insensitive substring of the message'),
    ...paging,
  })
  .refine(fromNotAfterTo, FROM_AFTER_TO);
export type AppLogQueryParams = z.infer<typeof AppLogQuerySchema>;

export const AccessLogEntrySchema = z
  .object({
    id: z.uuid(),
    created_at: z.string().openapi({ description: 'When the request arrived' }),
    port: z.number().int().openapi({
      description: 'The port the answering server listens on (by default 3000 the gateway, 3001 the console)',
    }),
    method: z.string(),
    path: z.string().openapi({ description: 'As sent (percent-encoded), without the query string' }),
    status_code: z.number().int(),
    user_id: z.uuid().nullable().openapi({ description: 'Null when the request was not authenticated' }),
    latency_ms: z.number().int().openapi({ description: 'Time to the response headers' }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    source: z.enum(APP_LOG_SOURCES).nullable().openapi({
      description:
        'The server that answered: gateway or console; null on rows written before it was recorded',
    }),
  })
  .openapi('AccessLogEntry');

export const AppLogEntrySchema = z
  .object({
    id: z.uuid(),
    created_at: z.string(),
    level: z.enum(LOG_LEVEL_NAMES as [string, ...string[]]),
    source: z.enum(APP_LOG_SOURCES).openapi({ description: 'The server that logged' }),
    target: z.string().openapi({ description: 'The module that logged' }),
    message: z.string(),
    fields: z.record(z.string(), z.unknown()).openapi({ description: 'Structured context' }),
  })
  .openapi('AppLogEntry');

export const AccessLogPageSchema = pageSchema(AccessLogEntrySchema, 'AccessLogPage', 'Requests');
export const AppLogPageSchema = pageSchema(AppLogEntrySchema, 'AppLogPage', 'Lines');
