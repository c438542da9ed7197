import type { ProviderRow } from '../db/repos/providers-repo';
import type { ProviderType } from '../db/schema/providers';

/** The only provider shape that leaves the server: no api_key, not even encrypted. */
export interface ProviderView {
  id: string;
  name: string;
  display_name: string;
  provider_type: ProviderType;
  base_url: string;
  config: Record<string, unknown>;
  is_active: boolean;
  created_at: string;
}

export function toProviderView(row: ProviderRow): ProviderView {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    provider_type: row.providerType,
    base_url: row.baseUrl,
    config: row.config,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
  };
}
