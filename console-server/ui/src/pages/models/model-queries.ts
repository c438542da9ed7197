import { api, unwrapPage } from '../../api/client';
import { useAllPages } from '../../api/paging';

/** Every query of models (pages, the whole list, the unpriced ones) starts with this key. */
export const MODELS_QUERY = ['models'] as const;

/** Every model, for pickers and suggestions that offer any of them (admins only). */
export function useAllModels(enabled: boolean) {
  return useAllPages(
    MODELS_QUERY,
    (page) => unwrapPage(api.GET('/api/admin/models', { params: { query: page } }), page),
    { enabled },
  );
}
