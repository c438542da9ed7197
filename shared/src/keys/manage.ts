import { generateApiKey } from '../auth/api-keys/api-key';
import { invalidateKeyHashes } from '../auth/api-keys/auth-cache';
import { type Page, type PageQuery, pageOf } from '../db/paging';
import {
  type ApiKeyRow,
  findOwnedKey,
  insertApiKeyRow,
  listOwnedKeys,
  updateKeyRow,
} from '../db/repos/api-keys-repo';
import { writeAudit } from '../db/repos/audit-repo';
import { loadSettings } from '../db/repos/settings-repo';
import type { Db } from '../db/types';
import { notFound, unprocessable } from '../http/app-error';
import { commitThenBump } from '../runtime/cache-versions';
import type { CreateKeyInput, UpdateKeyInput } from './schemas';
import { type KeyActor, type KeysDeps, requireActiveKey } from './state';
import {
  type CreatedKeyView,
  type KeyView,
  toCreatedKeyView,
  toKeyView,
  toUpdatedKeyView,
  type UpdatedKeyView,
} from './views';

const DAY_MS = 86_400_000;

/** Another user's key and a missing key look the same: 404, never 403. */
export async function requireOwnedKey(
  db: Db,
  userId: string,
  id: string,
  forUpdate = false,
): Promise<ApiKeyRow> {
  const row = await findOwnedKey(db, userId, id, { forUpdate });
  if (!row) throw notFound('API key not found');
  return row;
}

/** Days from now, bounded by the api_key_max_expiry_days setting; null means no expiry. */
async function expiryFrom(db: Db, days: number | null | undefined, now: Date): Promise<Date | null> {
  if (days === null || days === undefined) return null;
  const { api_key_max_expiry_days: max } = await loadSettings(db);
  if (days > max) {
    const message = `must be at most ${max} (setting api_key_max_expiry_days)`;
    throw unprocessable(`Invalid request: expires_in_days ${message}`, [
      { path: 'expires_in_days', message },
    ]);
  }
  return new Date(now.getTime() + days * DAY_MS);
}

export async function createKey(
  deps: KeysDeps,
  actor: KeyActor,
  input: CreateKeyInput,
  now = new Date(),
): Promise<CreatedKeyView> {
  const expiresAt = await expiryFrom(deps.db, input.expires_in_days, now);
  const generated = await generateApiKey();
  return deps.db.transaction(async (tx) => {
    const row = await insertApiKeyRow(tx, {
      userId: actor.userId,
      name: input.name,
      keyHash: generated.hash,
      prefix: generated.prefix,
      allowedModels: input.allowed_models ?? null,
      rateLimitRpm: input.rate_limit_rpm ?? null,
      expiresAt,
    });
    await writeAudit(tx, {
      ...actor,
      action: 'key.create',
      resourceType: 'api_key',
      resourceId: row.id,
      // Never the secret or its hash: the prefix is what the owner sees in lists.
      details: {
        name: row.name,
        prefix: row.prefix,
        allowed_models: row.allowedModels,
        rate_limit_rpm: row.rateLimitRpm,
        expires_at: row.expiresAt?.toISOString() ?? null,
      },
    });
    return toCreatedKeyView(row, generated.key);
  });
}

export async function listKeys(db: Db, userId: string, page: PageQuery): Promise<Page<KeyView>> {
  const { rows, total } = await listOwnedKeys(db, userId, page);
  return pageOf(page, total, rows.map(toKeyView));
}

export async function getKey(db: Db, userId: string, id: string): Promise<KeyView> {
  return toKeyView(await requireOwnedKey(db, userId, id));
}

export async function updateKey(
  deps: KeysDeps,
  actor: KeyActor,
  id: string,
  input: UpdateKeyInput,
  now = new Date(),
): Promise<UpdatedKeyView> {
  const expiresAt = await expiryFrom(deps.db, input.expires_in_days, now);
  return commitThenBump(deps, ['keys'], async (tx) => {
    const row = await requireOwnedKey(tx, actor.userId, id, true);
    requireActiveKey(row, now);
    const updated = await updateKeyRow(tx, id, {
      name: input.name,
      allowedModels: input.allowed_models,
      rateLimitRpm: input.rate_limit_rpm,
      // undefined leaves a column alone; null clears it.
      expiresAt: input.expires_in_days === undefined ? undefined : expiresAt,
      rotationIntervalDays: input.rotation_interval_days,
      inactivityTimeoutDays: input.inactivity_timeout_days,
      updatedAt: now,
    });
    await writeAudit(tx, {
      ...actor,
      action: 'key.update',
      resourceType: 'api_key',
      resourceId: id,
      details: { changes: input, expires_at: updated.expiresAt?.toISOString() ?? null },
    });
    // Last, still inside the transaction: if Redis is down the change is rolled back.
    await invalidateKeyHashes(deps.redis, [row.keyHash, row.previousKeyHash]);
    return toUpdatedKeyView(updated);
  });
}

/** Irreversible; the row stays (status revoked) for audit and usage history. */
export async function revokeKey(
  deps: KeysDeps,
  actor: KeyActor,
  id: string,
  now = new Date(),
): Promise<void> {
  await commitThenBump(deps, ['keys'], async (tx) => {
    const row = await requireOwnedKey(tx, actor.userId, id, true);
    await updateKeyRow(tx, id, { status: 'revoked', revokedAt: now, updatedAt: now });
    await writeAudit(tx, {
      ...actor,
      action: 'key.revoke',
      resourceType: 'api_key',
      resourceId: id,
      details: { name: row.name, prefix: row.prefix },
    });
    await invalidateKeyHashes(deps.redis, [row.keyHash, row.previousKeyHash]);
  });
}
