import type { ModelRouteRow, ModelRow } from '../db/repos/models-admin-repo';

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
}

export interface ModelView {
  id: string;
  name: string;
  input_weight: number;
  output_weight: number;
  input_price_per_mtok: number | null;
  output_price_per_mtok: number | null;
  /** Both prices set: cost can be computed for this model's requests. */
  is_priced: boolean;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  routes: ModelRouteView[];
}

function toRouteView(route: ModelRouteRow): ModelRouteView {
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
  };
}

/** `routes` are this model's routes, in position order. */
export function toModelView(model: ModelRow, routes: ModelRouteRow[]): ModelView {
  return {
    id: model.id,
    name: model.name,
    input_weight: model.inputWeight,
    output_weight: model.outputWeight,
    input_price_per_mtok: model.inputPricePerMtok,
    output_price_per_mtok: model.outputPricePerMtok,
    is_priced: model.inputPricePerMtok !== null && model.outputPricePerMtok !== null,
    is_active: model.isActive,
    created_at: model.createdAt.toISOString(),
    updated_at: model.updatedAt.toISOString(),
    routes: routes.map(toRouteView),
  };
}
