import { inArray, sql } from 'drizzle-orm';
import {
  mergeSettings,
  SETTING_DEFINITIONS,
  type SettingKey,
  type SettingValues,
} from '../../settings/definitions';
import { settings } from '../schema';
import type { QueryDb } from '../types';

export async function loadSettings(db: QueryDb): Promise<SettingValues> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings);
  return mergeSettings(rows);
}

/** Serialises settings writers (inside a transaction), so old values read for the audit are exact. */
export async function lockSettings(tx: QueryDb): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sluice:settings'))`);
}

/**
 * Stores validated values. The table holds only settings that differ from their default, so a
 * value equal to the default deletes its row instead.
 */
export async function writeSettings(
  tx: QueryDb,
  changes: ReadonlyArray<{ key: SettingKey; value: unknown }>,
  updatedBy: string | null,
): Promise<void> {
  const isDefault = (c: { key: SettingKey; value: unknown }) =>
    JSON.stringify(c.value) === JSON.stringify(SETTING_DEFINITIONS[c.key].default);
  const removed = changes.filter(isDefault).map((c) => c.key);
  const stored = changes
    .filter((c) => !isDefault(c))
    .map((c) => ({ key: c.key, category: SETTING_DEFINITIONS[c.key].category, value: c.value, updatedBy }));
  if (removed.length > 0) await tx.delete(settings).where(inArray(settings.key, removed));
  if (stored.length === 0) return;
  await tx
    .insert(settings)
    .values(stored)
    .onConflictDoUpdate({
      target: settings.key,
      set: {
        category: sql`excluded.category`,
        value: sql`excluded.value`,
        updatedAt: sql`now()`,
        updatedBy: sql`excluded.updated_by`,
      },
    });
}
