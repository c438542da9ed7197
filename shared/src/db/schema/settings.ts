import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tsz } from './columns';

/** One row per setting that differs from its default. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  category: text('category').notNull(),
  value: jsonb('value').notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/**
 * Values the stores keep about each other, by name: e.g. `redis_epoch`, the mark Redis must
 * still hold for its counters to be trusted (limits/counter-rebuild.ts).
 */
export const storeMarkers = pgTable('store_markers', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt: createdAt(),
    userId: uuid('user_id'),
    userEmail: text('user_email'),
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_action_idx').on(t.action),
    index('audit_log_search_idx').using(
      'gin',
      sql`to_tsvector('simple', ${t.action} || ' ' || coalesce(${t.resourceType}, '') || ' ' || coalesce(${t.resourceId}, '') || ' ' || coalesce(${t.userEmail}, '') || ' ' || ${t.details}::text)`,
    ),
  ],
);
