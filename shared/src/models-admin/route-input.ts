import { lockExistingProviderIds, type NewRoute } from '../db/repos/models-admin-repo';
import type { QueryDb } from '../db/types';
import { unprocessable } from '../http/app-error';
import type { RouteInput } from './schemas';

/**
 * Every route must point at an existing provider. Reported as a 422 with one detail per
 * bad entry, in the same {path, message} shape as schema failures.
 */
export async function toNewRoutes(
  tx: QueryDb,
  routes: RouteInput[],
  pathPrefix = 'routes',
): Promise<NewRoute[]> {
  const existing = await lockExistingProviderIds(tx, [...new Set(routes.map((r) => r.provider_id))]);
  const details = routes.flatMap((r, i) =>
    existing.has(r.provider_id)
      ? []
      : [{ path: `${pathPrefix}.${i}.provider_id`, message: 'provider not found' }],
  );
  if (details.length > 0) {
    const summary = details.map((d) => `${d.path} ${d.message}`).join('; ');
    throw unprocessable(`Invalid request: ${summary}`, details);
  }
  return routes.map((r) => ({
    providerId: r.provider_id,
    upstreamModel: r.upstream_model,
    rpmCap: r.rpm_cap,
    tpmCap: r.tpm_cap,
    weight: r.weight,
    isActive: r.is_active,
  }));
}

/** What an audit record says about a route list: enough to see what changed, nothing secret. */
export function describeRoutes(routes: RouteInput[]): Array<{ provider_id: string; upstream_model: string }> {
  return routes.map((r) => ({ provider_id: r.provider_id, upstream_model: r.upstream_model }));
}
