import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import type { Db } from '../db/types';
import { notFound, unprocessable } from '../http/app-error';
import { type ChangeDeps, commitThenBump } from '../runtime/cache-versions';
import type { AuditActor } from '../users/ports';
import { deletePriceRow, findPriceRow, listPricePage, type PriceRow, upsertPriceRow } from './repo';
import { type PriceInput, priceModelSchema } from './schemas';

/** One price-table entry as the console shows it. */
export interface PriceView {
  model: string;
  vendor: string;
  input_price_per_mtok: number;
  output_price_per_mtok: number;
  cached_input_price_per_mtok: number | null;
  cache_write_price_per_mtok: number | null;
  cache_write_1h_price_per_mtok: number | null;
  updated_at: string;
}

/** A stored row's prices in the API's field names. */
function rowPrices(row: PriceRow) {
  return {
    vendor: row.vendor,
    input_price_per_mtok: row.inputPricePerMtok,
    output_price_per_mtok: row.outputPricePerMtok,
    cached_input_price_per_mtok: row.cachedInputPricePerMtok,
    cache_write_price_per_mtok: row.cacheWritePricePerMtok,
    cache_write_1h_price_per_mtok: row.cacheWrite1hPricePerMtok,
  };
}

function toView(row: PriceRow): PriceView {
  return { model: row.model, ...rowPrices(row), updated_at: row.updatedAt.toISOString() };
}

/** A path segment as a table key; a malformed one is a 422 (PUT) like any other bad input. */
export function parsePriceModel(raw: string): string {
  const parsed = priceModelSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((i) => ({ path: 'model', message: i.message }));
  throw unprocessable(`Invalid request: model ${details[0]?.message ?? 'is invalid'}`, details);
}

export async function listPrices(db: Db, page: PageQuery): Promise<Page<PriceView>> {
  const { rows, total } = await listPricePage(db, page);
  return pageOf(page, total, rows.map(toView));
}

function pricesOf(row: PriceRow | PriceInput) {
  return 'inputPricePerMtok' in row ? rowPrices(row) : row;
}

/**
 * Create or replace one entry. The audit record keeps the old and new prices, since a price
 * change silently changes every future request's cost. `created` tells 201 from 200.
 */
export async function putPrice(
  deps: ChangeDeps,
  rawModel: string,
  input: PriceInput,
  actor: AuditActor,
): Promise<{ price: PriceView; created: boolean }> {
  const model = parsePriceModel(rawModel);
  return commitThenBump(deps, ['routing'], async (tx) => {
    const before = await findPriceRow(tx, model, { lock: true });
    const row = await upsertPriceRow(tx, {
      model,
      vendor: input.vendor,
      inputPricePerMtok: input.input_price_per_mtok,
      outputPricePerMtok: input.output_price_per_mtok,
      cachedInputPricePerMtok: input.cached_input_price_per_mtok,
      cacheWritePricePerMtok: input.cache_write_price_per_mtok,
      cacheWrite1hPricePerMtok: input.cache_write_1h_price_per_mtok,
    });
    await writeAudit(tx, {
      ...actor,
      action: before ? 'model_price.update' : 'model_price.create',
      resourceType: 'model_price',
      resourceId: model,
      details: { model, ...(before && { before: pricesOf(before) }), after: pricesOf(input) },
    });
    return { price: toView(row), created: !before };
  });
}

export async function deletePrice(deps: ChangeDeps, rawModel: string, actor: AuditActor): Promise<void> {
  const parsed = priceModelSchema.safeParse(rawModel);
  if (!parsed.success) throw notFound('Price not found');
  await commitThenBump(deps, ['routing'], async (tx) => {
    const row = await deletePriceRow(tx, parsed.data);
    if (!row) throw notFound('Price not found');
    await writeAudit(tx, {
      ...actor,
      action: 'model_price.delete',
      resourceType: 'model_price',
      resourceId: row.model,
      details: { model: row.model, before: pricesOf(row) },
    });
  });
}
