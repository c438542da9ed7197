import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** How every console list pages: `limit` entries from `offset`, and the total that matched. */
export interface Page<T> {
  total: number;
  offset: number;
  limit: number;
  entries: T[];
}

export interface PageParams {
  offset: number;
  limit: number;
}

/** The largest page the console answers. */
export const PAGE_MAX = 200;
export const FIRST_PAGE: PageParams = { offset: 0, limit: 50 };

/**
 * Every entry of a paged list, for what needs them all (a picker, a name for each id): pages
 * of 200 until the total is reached, so nothing past the first page is silently left out.
 */
export async function fetchAllPages<T>(fetchPage: (page: PageParams) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += PAGE_MAX) {
    const page = await fetchPage({ offset, limit: PAGE_MAX });
    all.push(...page.entries);
    if (page.entries.length === 0 || all.length >= page.total) return all;
  }
}

/** Whole-list queries keep this suffix on their key, apart from the paged views of the list. */
export const ALL_PAGES = 'all';

/** Every entry of a list, fetched page by page (see fetchAllPages); cached under `[...key, 'all']`. */
export function useAllPages<T>(
  queryKey: readonly unknown[],
  fetchPage: (page: PageParams) => Promise<Page<T>>,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: [...queryKey, ALL_PAGES],
    queryFn: () => fetchAllPages(fetchPage),
    enabled: options.enabled,
  });
}

/**
 * One page of a list screen and the Pager's props: the page moves with the Pager, the previous
 * page stays on screen while the next loads, a new filter (another `queryKey`) starts again at
 * the first page, and a page left empty by a delete steps back to the last page that has entries.
 */
export function usePagedQuery<T>(
  queryKey: readonly unknown[],
  fetchPage: (page: PageParams) => Promise<Page<T>>,
  options: { enabled?: boolean } = {},
) {
  const filters = JSON.stringify(queryKey);
  const [state, setState] = useState({ filters, page: FIRST_PAGE });
  const page = state.filters === filters ? state.page : { offset: 0, limit: state.page.limit };
  const setPage = (next: PageParams) => setState({ filters, page: next });
  const query = useQuery({
    queryKey: [...queryKey, page],
    queryFn: () => fetchPage(page),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
  const data = query.data;
  useEffect(() => {
    if (!data || data.entries.length > 0 || data.offset === 0 || data.total === 0) return;
    const lastOffset = Math.floor((data.total - 1) / data.limit) * data.limit;
    setState((current) => ({ ...current, page: { offset: lastOffset, limit: data.limit } }));
  }, [data]);
  const pager = data
    ? { total: data.total, offset: data.offset, limit: data.limit, onChange: setPage }
    : null;
  return { query, rows: data?.entries, pager };
}
