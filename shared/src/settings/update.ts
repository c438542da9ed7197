import { type AuditRecord, writeAudit } from '../db/repos/audit-repo';
import { loadSettings, lockSettings, writeSettings } from '../db/repos/settings-repo';
import { type ChangeDeps, commitThenBump } from '../runtime/cache-versions';
import type { SecretBox } from '../secrets/secret-box';
import type { SettingKey } from './definitions';
import { parseSettingsPatch } from './patch';
import { sealSecretSettings } from './secrets';
import { publicSettingValue } from './views';

/** `db` must support transactions. */
export interface SettingsUpdateDeps extends ChangeDeps {
  secrets: Pick<SecretBox, 'encrypt'>;
}

export type SettingsActor = Pick<AuditRecord, 'userId' | 'userEmail' | 'ipAddress' | 'userAgent'>;

export interface SettingsUpdateResult {
  updated: SettingKey[];
  /** The new value of each updated key, secrets masked. */
  settings: Partial<Record<SettingKey, unknown>>;
}

/**
 * PATCH /api/admin/settings: validates every key and value first (422 before any write), then
 * stores all values (secrets sealed) and the `settings.update` audit record in one
 * transaction; then every gateway isolate drops its settings (runtime/cache-versions.ts).
 */
export async function updateSettings(
  deps: SettingsUpdateDeps,
  input: Readonly<Record<string, unknown>>,
  actor: SettingsActor,
): Promise<SettingsUpdateResult> {
  const changes = parseSettingsPatch(input);
  const updated = changes.map((c) => c.key);
  const settings = Object.fromEntries(changes.map((c) => [c.key, publicSettingValue(c.key, c.value)]));
  if (changes.length === 0) return { updated, settings };
  const sealed = await sealSecretSettings(changes, deps.secrets);
  await commitThenBump(deps, ['settings'], async (tx) => {
    await lockSettings(tx);
    const before = await loadSettings(tx);
    await writeSettings(tx, sealed, actor.userId ?? null);
    const diff = Object.fromEntries(
      changes.map((c) => [c.key, { old: publicSettingValue(c.key, before[c.key]), new: settings[c.key] }]),
    );
    await writeAudit(tx, {
      ...actor,
      action: 'settings.update',
      resourceType: 'settings',
      details: { keys: updated, changes: diff },
    });
  });
  return { updated, settings };
}
