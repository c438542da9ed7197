import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEFAULT_SITE_NAME, documentTitle } from '../lib/title';
import { api, unwrap } from './client';

/** GET /api/setup/status (public): first-run state and the site_name setting. */
export const setupStatusQuery = queryOptions({
  queryKey: ['setup-status'],
  queryFn: () => unwrap(api.GET('/api/setup/status')),
  // Changes only by setup or a settings save, which refresh it themselves.
  staleTime: Number.POSITIVE_INFINITY,
});
export const SETUP_STATUS_QUERY = setupStatusQuery.queryKey;

export function useSetupStatus() {
  return useQuery(setupStatusQuery);
}

/** Where clients reach the gateway's /v1 (the gateway_base_url setting); null when unknown. */
export function useGatewayApiBase(): string | null {
  const base = useSetupStatus().data?.gateway_base_url;
  return base ? `${base.replace(/\/+$/, '')}/v1` : null;
}

/** The console's name (the site_name setting), known before sign-in. */
export function useSiteName(): string {
  return useSetupStatus().data?.site_name || DEFAULT_SITE_NAME;
}

/** Sets the browser tab's title to "<page> · <site name>". */
export function useDocumentTitle(page?: string): void {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = documentTitle(siteName, page);
  }, [siteName, page]);
}
