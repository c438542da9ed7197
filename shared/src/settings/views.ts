import {
  isSecretSetting,
  SETTING_CATEGORIES,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingCategory,
  type SettingKey,
  type SettingValues,
} from './definitions';

/**
 * What API responses and audit details show for a secret setting that has a value. A fixed
 * string (not a hash or a length) so nothing about the secret leaks; an unset secret is null.
 */
export const SECRET_MASK = '********';

export type CategoryView = Record<string, unknown>;
export type SettingsView = Record<SettingCategory, CategoryView>;

/** The value as it may leave the server: secrets become SECRET_MASK when set, null when unset. */
export function publicSettingValue(key: SettingKey, value: unknown): unknown {
  if (!isSecretSetting(key)) return value;
  return value === '' || value === null || value === undefined ? null : SECRET_MASK;
}

export function categoryView(values: SettingValues, category: SettingCategory): CategoryView {
  const view: CategoryView = {};
  for (const key of SETTING_KEYS) {
    if (SETTING_DEFINITIONS[key].category === category) view[key] = publicSettingValue(key, values[key]);
  }
  return view;
}

/** GET /api/admin/settings: every category, each with all of its keys. */
export function settingsView(values: SettingValues): SettingsView {
  const view = {} as SettingsView;
  for (const category of SETTING_CATEGORIES) view[category] = categoryView(values, category);
  return view;
}
