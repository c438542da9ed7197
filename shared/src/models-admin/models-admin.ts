import { type Page, type PageQuery, pageOf, slicePage } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import {
  deleteModelRow,
  findModelById,
  insertModelIfNameFree,
  listModelPage,
  listModelsWithoutOwnPrices,
  listRouteRows,
  type ModelRouteRow,
  type ModelRow,
  replaceRouteRows,
} from '../db/repos/models-admin-repo';
import type { Db } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import { listPriceRows, toPriceEntry } from '../pricing/repo';
import { type PriceTable, toPriceTable } from '../pricing/types';
import { type ChangeDeps, commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import { modelSettings } from './model-settings';
import { describeRoutes, toNewRoutes } from './route-input';
import type { CreateModelInput } from './schemas';
import { type ModelView, toModelView } from './views';

function groupByModel(routes: ModelRouteRow[]): Map<string, ModelRouteRow[]> {
  const grouped = new Map<string, ModelRouteRow[]>();
  for (const route of routes) grouped.set(route.modelId, [...(grouped.get(route.modelId) ?? []), route]);
  return grouped;
}

async function loadPriceTable(db: Db): Promise<PriceTable> {
  return toPriceTable((await listPriceRows(db)).map(toPriceEntry));
}

/** The models with their ordered routes: only those models' routes are read. */
async function toModelViews(db: Db, rows: ModelRow[]): Promise<ModelView[]> {
  if (rows.length === 0) return [];
  const [routeRows, prices] = await Promise.all([
    listRouteRows(
      db,
      rows.map((m) => m.id),
    ),
    loadPriceTable(db),
  ]);
  const routes = groupByModel(routeRows);
  return rows.map((m) => toModelView(m, routes.get(m.id) ?? [], prices));
}

/** A page of models by name, with their ordered routes. */
export async function listModels(db: Db, page: PageQuery): Promise<Page<ModelView>> {
  const { rows, total } = await listModelPage(db, page);
  return pageOf(page, total, await toModelViews(db, rows));
}

/**
 * A page of the models whose requests would be logged unpriced (no own prices, and no
 * price-table entry for the route normally used), by name. Models priced on their own are
 * left out by the query; the price table decides for the rest.
 */
export async function listUnpricedModels(db: Db, page: PageQuery): Promise<Page<ModelView>> {
  const views = await toModelViews(db, await listModelsWithoutOwnPrices(db));
  return slicePage(
    page,
    views.filter((m) => !m.is_priced),
  );
}

/** The model as stored now; also used after a change, inside its transaction. */
export async function getModel(db: Db, id: string): Promise<ModelView> {
  const model = await findModelById(db, id);
  if (!model) throw notFound('Model not found');
  // One after the other: this also runs inside a change's transaction (one connection).
  const routes = await listRouteRows(db, [model.id]);
  return toModelView(model, routes, await loadPriceTable(db));
}

export async function createModel(
  deps: ChangeDeps,
  input: CreateModelInput,
  actor: AuditActor,
): Promise<ModelView> {
  return commitThenBump(deps, ['routing'], async (tx) => {
    const routes = await toNewRoutes(tx, input.routes);
    const model = await insertModelIfNameFree(tx, {
      name: input.name,
      kind: input.kind,
      strategy: input.strategy,
      inputWeight: input.input_weight,
      outputWeight: input.output_weight,
      inputPricePerMtok: input.input_price_per_mtok,
      outputPricePerMtok: input.output_price_per_mtok,
      cachedInputPricePerMtok: input.cached_input_price_per_mtok,
      cacheWritePricePerMtok: input.cache_write_price_per_mtok,
      cacheWrite1hPricePerMtok: input.cache_write_1h_price_per_mtok,
      maxOutputTokens: input.max_output_tokens,
      cacheBreakpoints: input.cache_breakpoints,
      isActive: input.is_active,
    });
    if (!model) throw conflict('Model name already exists');
    await replaceRouteRows(tx, model.id, routes);
    await writeAudit(tx, {
      ...actor,
      action: 'model.create',
      resourceType: 'model',
      resourceId: model.id,
      details: { name: model.name, ...modelSettings(input), routes: describeRoutes(input.routes) },
    });
    return getModel(tx, model.id);
  });
}

export async function deleteModel(deps: ChangeDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['routing'], async (tx) => {
    const model = await deleteModelRow(tx, id);
    if (!model) throw notFound('Model not found');
    await writeAudit(tx, {
      ...actor,
      action: 'model.delete',
      resourceType: 'model',
      resourceId: model.id,
      details: { name: model.name },
    });
  });
}
