import { writeAudit } from '../db/repos/audit-repo';
import {
  findModelById,
  isUniqueViolation,
  type ModelInsert,
  replaceRouteRows,
  updateModelRow,
} from '../db/repos/models-admin-repo';
import type { Db } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import { type ChangeDeps, commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import { modelSettings } from './model-settings';
import { getModel } from './models-admin';
import { describeRoutes, toNewRoutes } from './route-input';
import type { ReplaceRoutesInput, UpdateModelInput } from './schemas';
import type { ModelView } from './views';

function toPatch(input: UpdateModelInput): Partial<ModelInsert> {
  const patch: Partial<ModelInsert> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.kind !== undefined) patch.kind = input.kind;
  if (input.strategy !== undefined) patch.strategy = input.strategy;
  if (input.input_weight !== undefined) patch.inputWeight = input.input_weight;
  if (input.output_weight !== undefined) patch.outputWeight = input.output_weight;
  if (input.input_price_per_mtok !== undefined) patch.inputPricePerMtok = input.input_price_per_mtok;
  if (input.output_price_per_mtok !== undefined) patch.outputPricePerMtok = input.output_price_per_mtok;
  if (input.cached_input_price_per_mtok !== undefined) {
    patch.cachedInputPricePerMtok = input.cached_input_price_per_mtok;
  }
  if (input.cache_write_price_per_mtok !== undefined) {
    patch.cacheWritePricePerMtok = input.cache_write_price_per_mtok;
  }
  if (input.cache_write_1h_price_per_mtok !== undefined) {
    patch.cacheWrite1hPricePerMtok = input.cache_write_1h_price_per_mtok;
  }
  if (input.max_output_tokens !== undefined) patch.maxOutputTokens = input.max_output_tokens;
  if (input.cache_breakpoints !== undefined) patch.cacheBreakpoints = input.cache_breakpoints;
  if (input.is_active !== undefined) patch.isActive = input.is_active;
  return patch;
}

/** Locks the model row so concurrent edits of one model (and its routes) apply one after another. */
async function lockModel(tx: Db, id: string) {
  const model = await findModelById(tx, id, { lock: true });
  if (!model) throw notFound('Model not found');
  return model;
}

/**
 * Scalar fields, and the route list when `routes` is present. Renaming changes what clients
 * send, so keys whose allowed_models name the old name stop matching it.
 */
export async function updateModel(
  deps: ChangeDeps,
  id: string,
  input: UpdateModelInput,
  actor: AuditActor,
): Promise<ModelView> {
  return commitThenBump(deps, ['routing'], async (tx) => {
    const before = await lockModel(tx, id);
    await updateModelRow(tx, id, toPatch(input)).catch((error: unknown) => {
      // The unique index decides, so two renames racing for one name cannot both win.
      throw isUniqueViolation(error) ? conflict('Model name already exists') : error;
    });
    if (input.routes) await replaceRouteRows(tx, id, await toNewRoutes(tx, input.routes));
    await writeAudit(tx, {
      ...actor,
      action: 'model.update',
      resourceType: 'model',
      resourceId: id,
      details: {
        name: input.name ?? before.name,
        changes: Object.keys(input).sort(),
        ...modelSettings(input),
        ...(input.name !== undefined && input.name !== before.name && { renamed_from: before.name }),
        ...(input.routes && { routes: describeRoutes(input.routes) }),
      },
    });
    return getModel(tx, id);
  });
}

/** PUT semantics: the body is the complete ordered list, swapped in one transaction. */
export async function replaceModelRoutes(
  deps: ChangeDeps,
  id: string,
  input: ReplaceRoutesInput,
  actor: AuditActor,
): Promise<ModelView> {
  return commitThenBump(deps, ['routing'], async (tx) => {
    const model = await lockModel(tx, id);
    await replaceRouteRows(tx, id, await toNewRoutes(tx, input.routes));
    await updateModelRow(tx, id, {});
    await writeAudit(tx, {
      ...actor,
      action: 'model.routes.update',
      resourceType: 'model',
      resourceId: id,
      details: { name: model.name, routes: describeRoutes(input.routes) },
    });
    return getModel(tx, id);
  });
}
