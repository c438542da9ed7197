import { type Page, type PageQuery, pageOf } from '../db/paging';
import { writeAudit } from '../db/repos/audit-repo';
import {
  countRoutesOfProvider,
  deleteProviderRow,
  findProviderById,
  insertProviderIfNameFree,
  listProviderPage,
  type ProviderPatch,
  updateProviderRow,
} from '../db/repos/providers-repo';
import type { Db } from '../db/types';
import { conflict, notFound } from '../http/app-error';
import { type ChangeDeps, commitThenBump } from '../runtime/cache-versions';
import type { SecretBox } from '../secrets/secret-box';
import type { AuditActor } from '../users/ports';
import type { CreateProviderInput, UpdateProviderInput } from './schemas';
import { type ProviderView, toProviderView } from './views';

/** `db` must support transactions; `secrets` seals api_key before it reaches the database. */
export interface ProvidersAdminDeps extends ChangeDeps {
  secrets: SecretBox;
}

export async function listProviders(db: Db, page: PageQuery): Promise<Page<ProviderView>> {
  const { rows, total } = await listProviderPage(db, page);
  return pageOf(page, total, rows.map(toProviderView));
}

export async function getProvider(db: Db, id: string): Promise<ProviderView> {
  const row = await findProviderById(db, id);
  if (!row) throw notFound('Provider not found');
  return toProviderView(row);
}

export async function createProvider(
  deps: ProvidersAdminDeps,
  input: CreateProviderInput,
  actor: AuditActor,
): Promise<ProviderView> {
  const apiKeyEncrypted = await deps.secrets.encrypt(input.api_key);
  return commitThenBump(deps, ['routing'], async (tx) => {
    const row = await insertProviderIfNameFree(tx, {
      name: input.name,
      displayName: input.display_name,
      providerType: input.provider_type,
      baseUrl: input.base_url,
      apiKeyEncrypted,
      config: input.config,
    });
    if (!row) throw conflict('Provider name already exists');
    await writeAudit(tx, {
      ...actor,
      action: 'provider.create',
      resourceType: 'provider',
      resourceId: row.id,
      details: { name: row.name, provider_type: row.providerType },
    });
    return toProviderView(row);
  });
}

async function toPatch(secrets: SecretBox, input: UpdateProviderInput): Promise<ProviderPatch> {
  const patch: ProviderPatch = {};
  if (input.display_name !== undefined) patch.displayName = input.display_name;
  if (input.base_url !== undefined) patch.baseUrl = input.base_url;
  if (input.is_active !== undefined) patch.isActive = input.is_active;
  if (input.api_key !== undefined) patch.apiKeyEncrypted = await secrets.encrypt(input.api_key);
  if (input.config !== undefined) patch.config = input.config;
  return patch;
}

export async function updateProvider(
  deps: ProvidersAdminDeps,
  id: string,
  input: UpdateProviderInput,
  actor: AuditActor,
): Promise<ProviderView> {
  const patch = await toPatch(deps.secrets, input);
  return commitThenBump(deps, ['routing'], async (tx) => {
    const row = await updateProviderRow(tx, id, patch);
    if (!row) throw notFound('Provider not found');
    await writeAudit(tx, {
      ...actor,
      action: 'provider.update',
      resourceType: 'provider',
      resourceId: row.id,
      // Field names only: the key is secret, and the rest are visible on the provider itself.
      details: { name: row.name, changes: Object.keys(input).sort() },
    });
    return toProviderView(row);
  });
}

export async function deleteProvider(deps: ProvidersAdminDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['routing'], async (tx) => {
    const routesRemoved = await countRoutesOfProvider(tx, id);
    const row = await deleteProviderRow(tx, id);
    if (!row) throw notFound('Provider not found');
    await writeAudit(tx, {
      ...actor,
      action: 'provider.delete',
      resourceType: 'provider',
      resourceId: row.id,
      details: { name: row.name, provider_type: row.providerType, routes_removed: routesRemoved },
    });
  });
}
