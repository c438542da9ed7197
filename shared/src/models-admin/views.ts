import type { ModelRouteRow, ModelRow } from '../db/repos/models-admin-repo';
import type { ModelKind, RoutingStrategy } from '../db/schema/providers';
import { type EffectivePrice, effectivePrice, type PriceSource } from '../pricing/effective';
import { findPriceEntry } from '../pricing/match';
import type { PriceTable } from '../pricing/types';

/** What a request would be billed at, and where that price comes from. */
export interface EffectivePriceView {
  source: PriceSource;
  input_price_per_mtok: number | null;
  output_price_per_mtok: number | null;
  cached_input_price_per_mtok: number | null;
  /** Null: prompt-cache writes are billed at the input price. */
  cache_write_price_per_mtok: number | null;
  /** Null: one-hour prompt-cache writes are billed at the (five-minute) write price. */
  cache_write_1h_price_per_mtok: number | null;
  /** The price-table entry used, when source is price_table. */
  price_table_model: string | null;
}

export interface ModelRouteView {
  id: string;
  provider_id: string;
  provider_name: string;
  upstream_model: string;
  position: number;
  rpm_cap: number | null;
  tpm_cap: number | null;
  weight: number;
  is_active: boolean;
  /** Requests this route serves are billed at this. */
  effective_price: EffectivePriceView;
}

export interface ModelView {
  id: string;
  name: string;
  kind: ModelKind;
  strategy: RoutingStrategy;
  input_weight: number;
  output_weight: number;
  input_price_per_mtok: number | null;
  output_price_per_mtok: number | null;
  cached_input_price_per_mtok: number | null;
  cache_write_price_per_mtok: number | null;
  cache_write_1h_price_per_mtok: number | null;
  /** The output cap sent when the client sets none; null: each route's upstream model's known limit. */
  max_output_tokens: number | null;
  /** Place prompt-cache breakpoints for clients of other formats on Anthropic/Bedrock routes. */
  cache_breakpoints: boolean;
  /** The model's requests get a cost: its own prices, or a price-table entry (effective_price). */
  is_priced: boolean;
  /** The price of requests on its first active route (the one normally used). */
  effective_price: EffectivePriceView;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  routes: ModelRouteView[];
}

function toPriceView(price: EffectivePrice): EffectivePriceView {
  return {
    source: price.source,
    input_price_per_mtok: price.inputPricePerMtok,
    output_price_per_mtok: price.outputPricePerMtok,
    cached_input_price_per_mtok: price.cachedInputPricePerMtok,
    cache_write_price_per_mtok: price.cacheWritePricePerMtok,
    cache_write_1h_price_per_mtok: price.cacheWrite1hPricePerMtok,
    price_table_model: price.priceTableModel,
  };
}

function toRouteView(route: ModelRouteRow, price: EffectivePrice): ModelRouteView {
  return {
    id: route.id,
    provider_id: route.providerId,
    provider_name: route.providerName,
    upstream_model: route.upstreamModel,
    position: route.position,
    rpm_cap: route.rpmCap,
    tpm_cap: route.tpmCap,
    weight: route.weight,
    is_active: route.isActive,
    effective_price: toPriceView(price),
  };
}

/**
 * `routes` are this model's routes, in position order. Prices follow the gateway's precedence
 * (pricing/effective.ts): the model's own, else the table entry of the route's upstream model.
 */
export function toModelView(model: ModelRow, routes: ModelRouteRow[], prices: PriceTable): ModelView {
  const routePrices = routes.map((r) => effectivePrice(model, findPriceEntry(prices, r.upstreamModel)));
  const main = Math.max(
    0,
    routes.findIndex((r) => r.isActive),
  );
  const price = routePrices[main] ?? effectivePrice(model, null);
  return {
    id: model.id,
    name: model.name,
    kind: model.kind,
    strategy: model.strategy,
    input_weight: model.inputWeight,
    output_weight: model.outputWeight,
    input_price_per_mtok: model.inputPricePerMtok,
    output_price_per_mtok: model.outputPricePerMtok,
    cached_input_price_per_mtok: model.cachedInputPricePerMtok,
    cache_write_price_per_mtok: model.cacheWritePricePerMtok,
    cache_write_1h_price_per_mtok: model.cacheWrite1hPricePerMtok,
    max_output_tokens: model.maxOutputTokens,
    cache_breakpoints: model.cacheBreakpoints,
    is_priced: price.source !== 'none',
    effective_price: toPriceView(price),
    is_active: model.isActive,
    created_at: model.createdAt.toISOString(),
    updated_at: model.updatedAt.toISOString(),
    routes: routes.map((r, i) => toRouteView(r, routePrices[i] ?? effectivePrice(model, null))),
  };
}
