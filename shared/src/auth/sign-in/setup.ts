import { sql } from 'drizzle-orm';
import { writeAudit } from '../../db/repos/audit-repo';
import { adminExists, insertUser } from '../../db/repos/users-repo';
import { providers } from '../../db/schema';
import { badRequest } from '../../http/app-error';
import { type CacheVersionDeps, commitThenBump } from '../../runtime/cache-versions';
import type { IdentityDeps, RequestMeta } from './ports';
import type { SetupInput } from './schemas';
import { issueTokenPair, readTokenTtls, type TokenPair } from './tokens';
import { toUserView, type UserView } from './views';

/** What a setup call hears once the system has its first admin. */
export const ALREADY_INITIALIZED = 'System is already initialized';

export async function isInitialized(deps: Pick<IdentityDeps, 'db'>): Promise<boolean> {
  return adminExists(deps.db);
}

/**
 * Creates the first admin (and optionally a provider) exactly once. The advisory lock
 * serialises concurrent calls, and the admin check is repeated inside the transaction. A
 * provider created here changes the gateways' routes like one created on its own screen.
 */
export async function initializeSystem(
  deps: IdentityDeps & CacheVersionDeps,
  input: SetupInput,
  meta: RequestMeta,
): Promise<TokenPair & { user: UserView }> {
  const passwordHash = await deps.passwords.hash(input.admin.password);
  const encryptedProviderKey = input.provider ? await deps.secrets.encrypt(input.provider.api_key) : null;
  return commitThenBump(deps, input.provider ? ['routing'] : [], async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sluice:setup'))`);
    if (await adminExists(tx)) throw badRequest(ALREADY_INITIALIZED);
    const admin = await insertUser(tx, {
      email: input.admin.email,
      displayName: input.admin.display_name,
      passwordHash,
      role: 'admin',
    });
    const actor = { userId: admin.id, userEmail: admin.email, ...meta };
    await writeAudit(tx, { ...actor, action: 'setup.initialize', resourceType: 'system' });
    await writeAudit(tx, { ...actor, action: 'user.create', resourceType: 'user', resourceId: admin.id });
    if (input.provider && encryptedProviderKey) {
      const p = input.provider;
      const [row] = await tx
        .insert(providers)
        .values({
          name: p.name,
          displayName: p.display_name,
          providerType: p.provider_type,
          baseUrl: p.base_url,
          apiKeyEncrypted: encryptedProviderKey,
        })
        .returning({ id: providers.id });
      await writeAudit(tx, {
        ...actor,
        action: 'provider.create',
        resourceType: 'provider',
        resourceId: row?.id ?? null,
        details: { name: p.name, provider_type: p.provider_type },
      });
    }
    const pair = await issueTokenPair(tx, deps.jwt, admin, await readTokenTtls(tx));
    return { ...pair, user: toUserView(admin) };
  });
}
