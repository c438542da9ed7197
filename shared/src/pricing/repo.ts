import { asc, count, eq, sql } from 'drizzle-orm';
import { fetchPage, type PageQuery } from '../db/paging';
import { modelPrices } from '../db/schema';
import type { QueryDb } from '../db/types';
import type { PriceEntry } from './types';

export type PriceRow = typeof modelPrices.$inferSelect;

export function toPriceEntry(row: PriceRow): PriceEntry {
  return {
    model: row.model,
    vendor: row.vendor,
    inputPricePerMtok: row.inputPricePerMtok,
    outputPricePerMtok: row.outputPricePerMtok,
    cachedInputPricePerMtok: row.cachedInputPricePerMtok,
    cacheWritePricePerMtok: row.cacheWritePricePerMtok,
    cacheWrite1hPricePerMtok: row.cacheWrite1hPricePerMtok,
  };
}

/** The whole table, by vendor then model: a few hundred rows at most. */
export async function listPriceRows(db: QueryDb): Promise<PriceRow[]> {
  return db.select().from(modelPrices).orderBy(asc(modelPrices.vendor), asc(modelPrices.model));
}

/** A page of the table, by vendor then model (unique, so the order is stable). */
export function listPricePage(db: QueryDb, page: PageQuery): Promise<{ rows: PriceRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(modelPrices).orderBy(asc(modelPrices.vendor), asc(modelPrices.model)),
    db.select({ total: count() }).from(modelPrices),
  );
}

export async function findPriceRow(db: QueryDb, model: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(modelPrices).where(eq(modelPrices.model, model)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Create or replace by model name (the unique index decides). */
export async function upsertPriceRow(db: QueryDb, entry: PriceEntry): Promise<PriceRow> {
  const values = {
    model: entry.model,
    vendor: entry.vendor,
    inputPricePerMtok: entry.inputPricePerMtok,
    outputPricePerMtok: entry.outputPricePerMtok,
    cachedInputPricePerMtok: entry.cachedInputPricePerMtok,
    cacheWritePricePerMtok: entry.cacheWritePricePerMtok,
    cacheWrite1hPricePerMtok: entry.cacheWrite1hPricePerMtok,
  };
  const [row] = await db
    .insert(modelPrices)
    .values(values)
    .onConflictDoUpdate({ target: modelPrices.model, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('price upsert returned no row');
  return row;
}

export async function deletePriceRow(db: QueryDb, model: string): Promise<PriceRow | undefined> {
  const [row] = await db.delete(modelPrices).where(eq(modelPrices.model, model)).returning();
  return row;
}
