import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Column helpers shared by every table: UUID keys and UTC timestamps. */
export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
export const tsz = (name: string) => timestamp(name, { withTimezone: true });
