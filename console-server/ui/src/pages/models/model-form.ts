import type { RequestBody, Schemas } from '../../api/types';
import { numberOrNull, optionalInt, orEmpty } from '../../lib/format';

export interface RouteValues {
  key: string;
  provider_id: string;
  upstream_model: string;
  rpm_cap: number | string;
  tpm_cap: number | string;
  weight: number | string;
  is_active: boolean;
}

export type ModelKind = Schemas['Model']['kind'];

/** chat: the chat endpoints; embedding: POST /v1/embeddings. */
export const KIND_LABEL: Record<ModelKind, string> = { chat: 'Chat', embedding: 'Embedding' };
export const KIND_OPTIONS = (Object.keys(KIND_LABEL) as ModelKind[]).map((value) => ({
  value,
  label: KIND_LABEL[value],
}));

export type RoutingStrategy = Schemas['Model']['strategy'];

/** How a request picks its first route; the others stay its fallbacks in position order. */
export const STRATEGY_LABEL: Record<RoutingStrategy, string> = {
  ordered: 'Ordered',
  weighted: 'Weighted',
  least_latency: 'Least latency',
};
const STRATEGY_HINT: Record<RoutingStrategy, string> = {
  ordered: 'by position',
  weighted: 'first route drawn by weight',
  least_latency: 'the fastest route seen first',
};
export const STRATEGY_OPTIONS = (Object.keys(STRATEGY_LABEL) as RoutingStrategy[]).map((value) => ({
  value,
  label: `${STRATEGY_LABEL[value]} — ${STRATEGY_HINT[value]}`,
}));

export interface ModelValues {
  name: string;
  kind: ModelKind;
  strategy: RoutingStrategy;
  input_price_per_mtok: number | string;
  output_price_per_mtok: number | string;
  cached_input_price_per_mtok: number | string;
  cache_write_price_per_mtok: number | string;
  cache_write_1h_price_per_mtok: number | string;
  /** '' : the known limit of each route's upstream model. */
  max_output_tokens: number | string;
  cache_breakpoints: boolean;
  input_weight: number | string;
  output_weight: number | string;
  is_active: boolean;
  routes: RouteValues[];
}

type ModelBody = RequestBody<'/api/admin/models', 'post'>;

let nextKey = 0;
export function emptyRoute(): RouteValues {
  nextKey += 1;
  return {
    key: `new-${nextKey}`,
    provider_id: '',
    upstream_model: '',
    rpm_cap: '',
    tpm_cap: '',
    weight: 1,
    is_active: true,
  };
}

export function modelValues(model: Schemas['Model'] | null): ModelValues {
  return {
    name: model?.name ?? '',
    kind: model?.kind ?? 'chat',
    strategy: model?.strategy ?? 'ordered',
    input_price_per_mtok: orEmpty(model?.input_price_per_mtok),
    output_price_per_mtok: orEmpty(model?.output_price_per_mtok),
    cached_input_price_per_mtok: orEmpty(model?.cached_input_price_per_mtok),
    cache_write_price_per_mtok: orEmpty(model?.cache_write_price_per_mtok),
    cache_write_1h_price_per_mtok: orEmpty(model?.cache_write_1h_price_per_mtok),
    max_output_tokens: orEmpty(model?.max_output_tokens),
    cache_breakpoints: model?.cache_breakpoints ?? true,
    input_weight: model?.input_weight ?? 1,
    output_weight: model?.output_weight ?? 1,
    is_active: model?.is_active ?? true,
    routes: (model?.routes ?? [])
      .slice()
      .sort((a, b) => a.position - b.position)
      .map((r) => ({
        key: r.id,
        provider_id: r.provider_id,
        upstream_model: r.upstream_model,
        rpm_cap: orEmpty(r.rpm_cap),
        tpm_cap: orEmpty(r.tpm_cap),
        weight: r.weight,
        is_active: r.is_active,
      })),
  };
}

/** The body for POST /api/admin/models and PATCH /api/admin/models/{id}: routes in display order. */
export function modelBody(v: ModelValues): ModelBody {
  return {
    name: v.name,
    kind: v.kind,
    strategy: v.strategy,
    input_price_per_mtok: numberOrNull(v.input_price_per_mtok),
    output_price_per_mtok: numberOrNull(v.output_price_per_mtok),
    cached_input_price_per_mtok: numberOrNull(v.cached_input_price_per_mtok),
    cache_write_price_per_mtok: numberOrNull(v.cache_write_price_per_mtok),
    cache_write_1h_price_per_mtok: numberOrNull(v.cache_write_1h_price_per_mtok),
    max_output_tokens: optionalInt(v.max_output_tokens) ?? null,
    cache_breakpoints: v.cache_breakpoints,
    input_weight: Number(v.input_weight),
    output_weight: Number(v.output_weight),
    is_active: v.is_active,
    routes: v.routes.map((r) => ({
      provider_id: r.provider_id,
      upstream_model: r.upstream_model,
      rpm_cap: optionalInt(r.rpm_cap) ?? null,
      tpm_cap: optionalInt(r.tpm_cap) ?? null,
      weight: Number(r.weight),
      is_active: r.is_active,
    })),
  };
}
