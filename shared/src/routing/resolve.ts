import { and, asc, eq } from 'drizzle-orm';
import {
  type ModelKind,
  modelRoutes,
  models,
  type ProviderType,
  providers,
  type RoutingStrategy,
} from '../db/schema';
import type { QueryDb } from '../db/types';
import { findPriceEntry } from '../pricing/match';
import { EMPTY_PRICE_TABLE, type PriceEntry, type PriceTable } from '../pricing/types';
import { parseDirectModelName } from './direct-name';

/** One upstream a request for the model may go to. */
export interface ResolvedRoute {
  /** Null for a direct-addressing route, which is not stored. */
  routeId: string | null;
  providerId: string;
  providerName: string;
  providerType: ProviderType;
  baseUrl: string;
  /** Still sealed: decrypt with the SecretBox only when calling upstream, and never log it. */
  apiKeyEncrypted: string;
  config: Record<string, unknown>;
  upstreamModel: string;
  rpmCap: number | null;
  tpmCap: number | null;
  weight: number;
  /** The price-table entry for upstreamModel (see pricing/match.ts); used when the model has no own prices. */
  tablePrice: PriceEntry | null;
}

export interface ResolvedModel {
  source: 'configured' | 'direct';
  /** Null for direct addressing. */
  modelId: string | null;
  /** The name the client sent. */
  name: string;
  /** What the model serves; null for direct addressing, which may name either. */
  kind: ModelKind | null;
  /** How a request picks its first route (route-order.ts). */
  strategy: RoutingStrategy;
  inputWeight: number;
  outputWeight: number;
  inputPricePerMtok: number | null;
  outputPricePerMtok: number | null;
  /** Null: cached input tokens are billed at the input price. */
  cachedInputPricePerMtok: number | null;
  /** Null: cache writes are billed at the input price. */
  cacheWritePricePerMtok: number | null;
  /** Null: one-hour cache writes are billed at the write price. */
  cacheWrite1hPricePerMtok: number | null;
  /** The model's own output cap for vendors that need one; null: each route's known limit. */
  maxOutputTokens: number | null;
  /** Place prompt-cache breakpoints for vendors that need them (models.cache_breakpoints). */
  cacheBreakpoints: boolean;
  /** Never empty; tried in this order. */
  routes: ResolvedRoute[];
}

type ModelTerms = Pick<
  ResolvedModel,
  | 'inputWeight'
  | 'outputWeight'
  | 'inputPricePerMtok'
  | 'outputPricePerMtok'
  | 'cachedInputPricePerMtok'
  | 'cacheWritePricePerMtok'
  | 'cacheWrite1hPricePerMtok'
  | 'maxOutputTokens'
  | 'cacheBreakpoints'
>;

/**
 * The terms of a model that sets none of its own (the models table's defaults, and all a
 * direct-addressed model can have): tokens count one for one, and cost comes only from the
 * price table.
 */
export const NO_OWN_TERMS: Readonly<ModelTerms> = {
  inputWeight: 1,
  outputWeight: 1,
  inputPricePerMtok: null,
  outputPricePerMtok: null,
  cachedInputPricePerMtok: null,
  cacheWritePricePerMtok: null,
  cacheWrite1hPricePerMtok: null,
  maxOutputTokens: null,
  cacheBreakpoints: true,
};

/**
 * What serves `modelName`: the active routes (on active providers) of the configured model
 * of that name, in position order; or, when no model of that name is configured, a single
 * route to the active provider named by `provider_name/upstream_model`. Null when nothing
 * can serve it. A configured model shadows direct addressing even while inactive, so
 * deactivating a model named like `openai/gpt-4o` really stops it.
 */
export async function resolveModelRoutes(
  db: QueryDb,
  modelName: string,
  priceTable: () => Promise<PriceTable> = async () => EMPTY_PRICE_TABLE,
): Promise<ResolvedModel | null> {
  // The price table comes from the isolate's cache (gateway/warm-caches.ts), so the price of
  // each route is looked up here, once per resolution, and travels with the cached result.
  const [resolved, table] = await Promise.all([resolveUnpriced(db, modelName), priceTable()]);
  if (!resolved) return null;
  return {
    ...resolved,
    routes: resolved.routes.map((route) => ({
      ...route,
      tablePrice: findPriceEntry(table, route.upstreamModel),
    })),
  };
}

async function resolveUnpriced(db: QueryDb, modelName: string): Promise<ResolvedModel | null> {
  const configured = await resolveConfigured(db, modelName);
  if (configured !== 'absent') return configured;
  return resolveDirect(db, modelName);
}

async function resolveConfigured(db: QueryDb, name: string): Promise<ResolvedModel | null | 'absent'> {
  // One round trip: the gateway runs this on the HTTP driver for every request.
  const rows = await db
    .select({ model: models, route: modelRoutes, provider: providers })
    .from(models)
    .leftJoin(modelRoutes, and(eq(modelRoutes.modelId, models.id), eq(modelRoutes.isActive, true)))
    .leftJoin(providers, and(eq(providers.id, modelRoutes.providerId), eq(providers.isActive, true)))
    .where(eq(models.name, name))
    .orderBy(asc(modelRoutes.position), asc(modelRoutes.createdAt));
  const model = rows[0]?.model;
  if (!model) return 'absent';
  if (!model.isActive) return null;
  const routes = rows.flatMap(({ route, provider }) =>
    route && provider
      ? [
          {
            ...providerFields(provider),
            routeId: route.id,
            upstreamModel: route.upstreamModel,
            rpmCap: route.rpmCap,
            tpmCap: route.tpmCap,
            weight: route.weight,
            tablePrice: null,
          },
        ]
      : [],
  );
  if (routes.length === 0) return null;
  return {
    source: 'configured',
    modelId: model.id,
    name: model.name,
    kind: model.kind,
    strategy: model.strategy,
    inputWeight: model.inputWeight,
    outputWeight: model.outputWeight,
    inputPricePerMtok: model.inputPricePerMtok,
    outputPricePerMtok: model.outputPricePerMtok,
    cachedInputPricePerMtok: model.cachedInputPricePerMtok,
    cacheWritePricePerMtok: model.cacheWritePricePerMtok,
    cacheWrite1hPricePerMtok: model.cacheWrite1hPricePerMtok,
    maxOutputTokens: model.maxOutputTokens,
    cacheBreakpoints: model.cacheBreakpoints,
    routes,
  };
}

async function resolveDirect(db: QueryDb, name: string): Promise<ResolvedModel | null> {
  const parsed = parseDirectModelName(name);
  if (!parsed) return null;
  const [provider] = await db
    .select()
    .from(providers)
    .where(and(eq(providers.name, parsed.providerName), eq(providers.isActive, true)))
    .limit(1);
  if (!provider) return null;
  const route: ResolvedRoute = {
    ...providerFields(provider),
    routeId: null,
    upstreamModel: parsed.upstreamModel,
    rpmCap: null,
    tpmCap: null,
    weight: 1,
    tablePrice: null,
  };
  // Unconfigured, so unweighted, and priced only through the price table.
  return {
    source: 'direct',
    modelId: null,
    name,
    kind: null,
    strategy: 'ordered',
    ...NO_OWN_TERMS,
    routes: [route],
  };
}

function providerFields(p: typeof providers.$inferSelect) {
  return {
    providerId: p.id,
    providerName: p.name,
    providerType: p.providerType,
    baseUrl: p.baseUrl,
    apiKeyEncrypted: p.apiKeyEncrypted,
    config: p.config,
  };
}
