import { generateApiKey } from '../../shared/src/auth/api-keys/api-key';
import { apiKeys, modelRoutes, models, providers, users } from '../../shared/src/db/schema';
import type { QueryDb } from '../../shared/src/db/types';

/** Rows written straight through drizzle, for suites that test readers of them. */
export async function insertUser(db: QueryDb, email: string, role: 'admin' | 'user' = 'user') {
  const [row] = await db
    .insert(users)
    .values({ email, displayName: email, passwordHash: null, role })
    .returning();
  return row!;
}

export async function insertApiKey(
  db: QueryDb,
  userId: string,
  patch: Partial<typeof apiKeys.$inferInsert> = {},
): Promise<{ id: string; key: string; hash: string }> {
  const generated = await generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, name: 'test key', keyHash: generated.hash, prefix: generated.prefix, ...patch })
    .returning({ id: apiKeys.id });
  return { id: row!.id, key: generated.key, hash: generated.hash };
}

export async function insertModelWithRoute(db: QueryDb, modelName: string, providerName: string) {
  const [provider] = await db
    .insert(providers)
    .values({
      name: providerName,
      displayName: providerName,
      providerType: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeyEncrypted: 'v1.unused.unused',
    })
    .onConflictDoNothing()
    .returning();
  const [model] = await db.insert(models).values({ name: modelName }).returning();
  await db
    .insert(modelRoutes)
    .values({ modelId: model!.id, providerId: provider!.id, upstreamModel: modelName, position: 0 });
  return model!;
}
