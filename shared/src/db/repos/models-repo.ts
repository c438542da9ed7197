import { and, asc, eq } from 'drizzle-orm';
import { type ModelKind, modelRoutes, models, providers } from '../schema';
import type { QueryDb } from '../types';

export interface ServableModel {
  name: string;
  kind: ModelKind;
  createdAt: Date;
  /** Provider of the first active route: who serves the model by default. */
  ownedBy: string;
}

/** Active models that have at least one active route on an active provider, by name. */
export async function listServableModels(db: QueryDb): Promise<ServableModel[]> {
  const rows = await db
    .select({ name: models.name, kind: models.kind, createdAt: models.createdAt, provider: providers.name })
    .from(models)
    .innerJoin(modelRoutes, and(eq(modelRoutes.modelId, models.id), eq(modelRoutes.isActive, true)))
    .innerJoin(providers, and(eq(providers.id, modelRoutes.providerId), eq(providers.isActive, true)))
    .where(eq(models.isActive, true))
    .orderBy(asc(models.name), asc(modelRoutes.position));
  const seen = new Map<string, ServableModel>();
  for (const row of rows) {
    if (!seen.has(row.name))
      seen.set(row.name, { name: row.name, kind: row.kind, createdAt: row.createdAt, ownedBy: row.provider });
  }
  return [...seen.values()];
}
