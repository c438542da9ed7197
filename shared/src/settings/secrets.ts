import type { SecretBox } from '../secrets/secret-box';
import { isSecretSetting, type SettingKey, type SettingValues } from './definitions';
import type { SettingChange } from './patch';

/**
 * Secret settings are sealed with the same AES-256-GCM box as provider keys before they are
 * stored, so the settings table never holds them in clear. loadSettings therefore returns the
 * sealed text for them; code that needs the value calls revealSecretSetting.
 */
export async function sealSecretSettings(
  changes: readonly SettingChange[],
  box: Pick<SecretBox, 'encrypt'>,
): Promise<SettingChange[]> {
  return Promise.all(
    changes.map(async (change) => {
      // '' is "unset" (the default): nothing to seal, and its row is removed.
      if (!isSecretSetting(change.key) || change.value === '') return change;
      return { key: change.key, value: await box.encrypt(String(change.value)) };
    }),
  );
}

/** The clear value of a secret setting, '' when unset. Throws when it cannot be unsealed. */
export async function revealSecretSetting(
  values: SettingValues,
  key: SettingKey,
  box: Pick<SecretBox, 'decrypt'>,
): Promise<string> {
  if (!isSecretSetting(key)) throw new TypeError(`${key} is not a secret setting`);
  const sealed = values[key];
  if (typeof sealed !== 'string' || sealed === '') return '';
  return box.decrypt(sealed);
}
