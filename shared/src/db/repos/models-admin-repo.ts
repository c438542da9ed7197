import { and, asc, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { fetchPage, type PageQuery } from '../paging';
import { modelRoutes, models, providers } from '../schema';
import type { QueryDb } from '../types';

export type ModelRow = typeof models.$inferSelect;
export type ModelInsert = Omit<typeof models.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export interface ModelRouteRow {
  id: string;
  modelId: string;
  providerId: string;
  providerName: string;
  upstreamModel: string;
  position: number;
  rpmCap: number | null;
  tpmCap: number | null;
  weight: number;
  isActive: boolean;
}

export interface NewRoute {
  providerId: string;
  upstreamModel: string;
  rpmCap: number | null;
  tpmCap: number | null;
  weight: number;
  isActive: boolean;
}

/** A page of models by name (unique, so the order is stable). */
export function listModelPage(db: QueryDb, page: PageQuery): Promise<{ rows: ModelRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(models).orderBy(asc(models.name)),
    db.select({ total: count() }).from(models),
  );
}

/**
 * Models whose own prices cannot price a request (pricing/effective.ts: an input and an output
 * price, or an input price for an embedding model), by name: only these can be unpriced, and
 * whether they are depends on the price table.
 */
export function listModelsWithoutOwnPrices(db: QueryDb): Promise<ModelRow[]> {
  const noOutput = and(isNull(models.outputPricePerMtok), ne(models.kind, 'embedding'));
  return db
    .select()
    .from(models)
    .where(or(isNull(models.inputPricePerMtok), noOutput))
    .orderBy(asc(models.name));
}

export async function findModelById(db: QueryDb, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(models).where(eq(models.id, id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Routes of the given models (all models when omitted), in model then position order. */
export async function listRouteRows(db: QueryDb, modelIds?: string[]): Promise<ModelRouteRow[]> {
  if (modelIds?.length === 0) return [];
  return db
    .select({
      id: modelRoutes.id,
      modelId: modelRoutes.modelId,
      providerId: modelRoutes.providerId,
      providerName: providers.name,
      upstreamModel: modelRoutes.upstreamModel,
      position: modelRoutes.position,
      rpmCap: modelRoutes.rpmCap,
      tpmCap: modelRoutes.tpmCap,
      weight: modelRoutes.weight,
      isActive: modelRoutes.isActive,
    })
    .from(modelRoutes)
    .innerJoin(providers, eq(providers.id, modelRoutes.providerId))
    .where(modelIds ? inArray(modelRoutes.modelId, modelIds) : undefined)
    .orderBy(asc(modelRoutes.modelId), asc(modelRoutes.position));
}

/** Undefined when the name is taken (the unique index decides). */
export async function insertModelIfNameFree(db: QueryDb, input: ModelInsert): Promise<ModelRow | undefined> {
  const [row] = await db.insert(models).values(input).onConflictDoNothing().returning();
  return row;
}

/** Postgres unique_violation as the Neon driver reports it; drizzle wraps it in `cause`. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function updateModelRow(
  db: QueryDb,
  id: string,
  patch: Partial<ModelInsert>,
): Promise<ModelRow | undefined> {
  const [row] = await db
    .update(models)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(models.id, id))
    .returning();
  return row;
}

export async function deleteModelRow(db: QueryDb, id: string): Promise<ModelRow | undefined> {
  const [row] = await db.delete(models).where(eq(models.id, id)).returning();
  return row;
}

/** Replaces the whole ordered list; position is the array index. Call inside a transaction. */
export async function replaceRouteRows(db: QueryDb, modelId: string, routes: NewRoute[]): Promise<void> {
  await db.delete(modelRoutes).where(eq(modelRoutes.modelId, modelId));
  if (routes.length === 0) return;
  await db.insert(modelRoutes).values(routes.map((r, position) => ({ ...r, modelId, position })));
}

/**
 * Which of the ids name a provider. The rows are share-locked so a concurrent provider
 * delete waits for this transaction instead of breaking the routes' foreign key.
 */
export async function lockExistingProviderIds(db: QueryDb, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: providers.id })
    .from(providers)
    .where(inArray(providers.id, ids))
    .for('share');
  return new Set(rows.map((r) => r.id));
}
