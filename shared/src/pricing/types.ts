/** One row of the price table: USD per 1M tokens of a vendor model, keyed by its upstream name. */
export interface PriceEntry {
  model: string;
  vendor: string;
  inputPricePerMtok: number;
  outputPricePerMtok: number;
  /** Null: cached input tokens are billed at the input price. */
  cachedInputPricePerMtok: number | null;
  /** Null: prompt-cache writes are billed at the input price. */
  cacheWritePricePerMtok: number | null;
  /** Null: one-hour cache writes are billed at the (five-minute) write price. */
  cacheWrite1hPricePerMtok: number | null;
}

/** The whole table, indexed by lower-cased model name (vendors' ids are case-insensitive in practice). */
export type PriceTable = ReadonlyMap<string, PriceEntry>;

export function toPriceTable(entries: readonly PriceEntry[]): PriceTable {
  return new Map(entries.map((entry) => [entry.model.toLowerCase(), entry]));
}

export const EMPTY_PRICE_TABLE: PriceTable = new Map();
