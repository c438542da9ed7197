import { asc, count, eq, sql } from 'drizzle-orm';
import { fetchPage, type PageQuery } from '../paging';
import { modelRoutes, type ProviderType, providers } from '../schema';
import type { QueryDb } from '../types';

export type ProviderRow = typeof providers.$inferSelect;

/** A page of providers by name (unique, so the order is stable). */
export function listProviderPage(
  db: QueryDb,
  page: PageQuery,
): Promise<{ rows: ProviderRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(providers).orderBy(asc(providers.name)),
    db.select({ total: count() }).from(providers),
  );
}

export async function findProviderById(db: QueryDb, id: string): Promise<ProviderRow | undefined> {
  const [row] = await db.select().from(providers).where(eq(providers.id, id)).limit(1);
  return row;
}

/** Undefined when the name is taken (the unique index decides, so racing creates cannot both win). */
export async function insertProviderIfNameFree(
  db: QueryDb,
  input: {
    name: string;
    displayName: string;
    providerType: ProviderType;
    baseUrl: string;
    apiKeyEncrypted: string;
    config?: Record<string, unknown>;
  },
): Promise<ProviderRow | undefined> {
  const [row] = await db.insert(providers).values(input).onConflictDoNothing().returning();
  return row;
}

export interface ProviderPatch {
  displayName?: string;
  baseUrl?: string;
  isActive?: boolean;
  apiKeyEncrypted?: string;
  config?: Record<string, unknown>;
}

export async function updateProviderRow(
  db: QueryDb,
  id: string,
  patch: ProviderPatch,
): Promise<ProviderRow | undefined> {
  const [row] = await db
    .update(providers)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(providers.id, id))
    .returning();
  return row;
}

export async function countRoutesOfProvider(db: QueryDb, providerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(modelRoutes)
    .where(eq(modelRoutes.providerId, providerId));
  return row?.n ?? 0;
}

/** Its model routes go with it (ON DELETE CASCADE). */
export async function deleteProviderRow(db: QueryDb, id: string): Promise<ProviderRow | undefined> {
  const [row] = await db.delete(providers).where(eq(providers.id, id)).returning();
  return row;
}
