import { describe, expect, it } from 'vitest';
import { defaultSettings, SETTING_CATEGORIES, SETTING_KEYS } from './definitions';
import { categoryView, publicSettingValue, SECRET_MASK, settingsView } from './views';

describe('settings views', () => {
  it('group every key under exactly one category', () => {
    const view = settingsView(defaultSettings());
    expect(Object.keys(view)).toEqual([...SETTING_CATEGORIES]);
    const keys = Object.values(view).flatMap((c) => Object.keys(c));
    expect(keys.sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('show a secret as null when unset and as the mask when set, never in clear', () => {
    expect(publicSettingValue('oidc_client_secret', '')).toBeNull();
    expect(publicSettingValue('oidc_client_secret', 'hunter2')).toBe(SECRET_MASK);
    const values = { ...defaultSettings(), oidc_client_secret: 'hunter2' };
    expect(JSON.stringify(settingsView(values))).not.toContain('hunter2');
    expect(categoryView(values, 'oidc').oidc_client_secret).toBe(SECRET_MASK);
    expect(publicSettingValue('oidc_client_id', 'visible')).toBe('visible');
  });
});
