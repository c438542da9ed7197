// What the apps use of settings/. Inside shared/src, import the files themselves.
export {
  isSecretSetting,
  isSettingCategory,
  SETTING_CATEGORIES,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingCategory,
  type SettingDefinition,
  type SettingKey,
} from './definitions';
export { updateSettings } from './update';
export { categoryView, SECRET_MASK, settingsView } from './views';
