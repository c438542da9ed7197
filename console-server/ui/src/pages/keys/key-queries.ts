import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { isAdmin, type SessionUser } from '../../auth/session';
import { useAllModels } from '../models/model-queries';

export const KEYS_QUERY = ['keys'] as const;

/** Admins may read the keys settings; the RPM field starts from api_key_default_rate_limit_rpm. */
export function useDefaultRpm(user: SessionUser) {
  const admin = isAdmin(user);
  const query = useQuery({
    queryKey: ['settings', 'keys'],
    queryFn: () =>
      unwrap(api.GET('/api/admin/settings/category/{category}', { params: { path: { category: 'keys' } } })),
    enabled: admin,
  });
  const settings = query.data as { api_key_default_rate_limit_rpm?: number } | undefined;
  return { rpm: settings?.api_key_default_rate_limit_rpm, ready: !admin || !query.isPending };
}

/** Every model name for the allowed-models picker (admins only; others type them). */
export function useModelNames(user: SessionUser): string[] {
  return useAllModels(isAdmin(user)).data?.map((m) => m.name) ?? [];
}

export type KeyStatus = 'active' | 'expiring' | 'expired';

export function keyStatus(expiresAt: string | null, now = Date.now()): KeyStatus {
  if (!expiresAt) return 'active';
  const left = new Date(expiresAt).getTime() - now;
  if (left <= 0) return 'expired';
  return left < 7 * 86_400_000 ? 'expiring' : 'active';
}
