import type { RequestBody, Schemas } from '../../api/types';
import { numberOrNull, orEmpty } from '../../lib/format';

type Price = Schemas['ModelPrice'];
type PriceBody = RequestBody<'/api/admin/model-prices/{model}', 'put'>;

/** The form of one price-table entry; prices as typed ('' is "not set"). */
export interface PriceValues {
  model: string;
  vendor: string;
  input_price_per_mtok: number | string;
  output_price_per_mtok: number | string;
  cached_input_price_per_mtok: number | string;
  cache_write_price_per_mtok: number | string;
  cache_write_1h_price_per_mtok: number | string;
}

export function priceValues(entry: Price | null): PriceValues {
  return {
    model: entry?.model ?? '',
    vendor: entry?.vendor ?? '',
    input_price_per_mtok: orEmpty(entry?.input_price_per_mtok),
    output_price_per_mtok: orEmpty(entry?.output_price_per_mtok),
    cached_input_price_per_mtok: orEmpty(entry?.cached_input_price_per_mtok),
    cache_write_price_per_mtok: orEmpty(entry?.cache_write_price_per_mtok),
    cache_write_1h_price_per_mtok: orEmpty(entry?.cache_write_1h_price_per_mtok),
  };
}

/** The input and output prices are required: an entry without them could not price a request. */
export const PRICE_VALIDATION = {
  input_price_per_mtok: (v: number | string) => (v === '' ? 'Required' : null),
  output_price_per_mtok: (v: number | string) => (v === '' ? 'Required' : null),
};

/** The body of PUT /api/admin/model-prices/{model} (after PRICE_VALIDATION passed). */
export function priceBody(v: PriceValues): PriceBody {
  return {
    vendor: v.vendor,
    input_price_per_mtok: Number(v.input_price_per_mtok),
    output_price_per_mtok: Number(v.output_price_per_mtok),
    cached_input_price_per_mtok: numberOrNull(v.cached_input_price_per_mtok),
    cache_write_price_per_mtok: numberOrNull(v.cache_write_price_per_mtok),
    cache_write_1h_price_per_mtok: numberOrNull(v.cache_write_1h_price_per_mtok),
  };
}
