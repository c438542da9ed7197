import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/**
 * The access log: one row per HTTP request to either server (source gateway or console, with
 * the port it listens on). Used when ClickHouse is not configured. No foreign keys: log rows
 * outlive the users they name.
 */
export const accessLogs = pgTable(
  'access_logs',
  {
    id: id(),
    /** When the request arrived. */
    createdAt: createdAt(),
    port: integer('port').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    statusCode: integer('status_code').notNull(),
    userId: uuid('user_id'),
    latencyMs: integer('latency_ms').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Null on rows written before it was recorded. */
    source: text('source').$type<'gateway' | 'console'>(),
  },
  (t) => [
    index('access_logs_created_idx').on(t.createdAt),
    index('access_logs_status_created_idx').on(t.statusCode, t.createdAt),
    index('access_logs_user_created_idx').on(t.userId, t.createdAt),
    check('access_logs_source_check', sql`${t.source} in ('gateway', 'console')`),
  ],
);

/**
 * Structured application logs from both servers. level is numeric so "at least WARN" is a range:
 * 10 TRACE, 20 DEBUG, 30 INFO, 40 WARN, 50 ERROR. target names the module that logged.
 */
export const appLogs = pgTable(
  'app_logs',
  {
    id: id(),
    createdAt: createdAt(),
    level: smallint('level').notNull(),
    source: text('source').$type<'gateway' | 'console'>().notNull(),
    target: text('target').notNull(),
    message: text('message').notNull(),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('app_logs_created_idx').on(t.createdAt),
    index('app_logs_level_created_idx').on(t.level, t.createdAt),
    check('app_logs_level_check', sql`${t.level} in (10, 20, 30, 40, 50)`),
    check('app_logs_source_check', sql`${t.source} in ('gateway', 'console')`),
  ],
);
