import * as z from 'zod';

/**
 * The one way the console's lists page: `limit` rows from `offset`, in an order that never
 * changes between two calls (a name or a creation time, ties by id), with the total of rows the
 * same filter matches. A limit above the maximum is refused (422), not clamped.
 */
export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The first page with the defaults: what a caller that names no page gets. */
export const FIRST_PAGE: PageQuery = { limit: PAGE_LIMIT_DEFAULT, offset: 0 };

export interface Page<T> {
  total: number;
  offset: number;
  limit: number;
  entries: T[];
}

export function pageOf<T>(query: PageQuery, total: number, entries: T[]): Page<T> {
  return { total, offset: query.offset, limit: query.limit, entries };
}

/** One page of a list already in memory (small sets computed rather than queried). */
export function slicePage<T>(query: PageQuery, all: readonly T[]): Page<T> {
  return pageOf(query, all.length, all.slice(query.offset, query.offset + query.limit));
}

/** A list query still to be bounded (a drizzle select, before its limit). */
interface Limitable<T> {
  limit(limit: number): { offset(offset: number): PromiseLike<T[]> };
}

/** One page of `query` and the count of the same filter, side by side. */
export async function fetchPage<T>(
  page: PageQuery,
  query: Limitable<T>,
  counted: PromiseLike<ReadonlyArray<{ total: number }>>,
): Promise<{ rows: T[]; total: number }> {
  const [rows, totals] = await Promise.all([query.limit(page.limit).offset(page.offset), counted]);
  return { rows, total: totals[0]?.total ?? 0 };
}
