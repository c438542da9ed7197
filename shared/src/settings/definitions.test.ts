import { describe, expect, it } from 'vitest';
import { defaultSettings, mergeSettings, SETTING_CATEGORIES, SETTING_DEFINITIONS } from './definitions';

describe('settings definitions', () => {
  it('default to the documented values', () => {
    const s = defaultSettings();
    expect(s).toMatchObject({
      jwt_access_ttl_seconds: 900,
      jwt_refresh_ttl_seconds: 604_800,
      cache_ttl_seconds: 300,
      signature_drift_seconds: 300,
      nonce_ttl_seconds: 300,
      rate_limit_fail_closed: false,
      budget_warning_threshold: 0.8,
      budget_critical_threshold: 0.95,
      api_key_max_expiry_days: 365,
      api_key_default_rate_limit_rpm: 60,
      data_retention_days: 30,
    });
  });

  it('have defaults that pass their own schema', () => {
    for (const [key, def] of Object.entries(SETTING_DEFINITIONS)) {
      expect(def.schema.safeParse(def.default).success, key).toBe(true);
    }
  });

  it('put every key in a known category', () => {
    for (const def of Object.values(SETTING_DEFINITIONS)) {
      expect(SETTING_CATEGORIES).toContain(def.category);
    }
  });

  it('merge stored rows over defaults and ignore invalid ones', () => {
    const merged = mergeSettings([
      { key: 'jwt_access_ttl_seconds', value: 120 },
      { key: 'cache_ttl_seconds', value: 'nope' },
      { key: 'removed_setting', value: 1 },
    ]);
    expect(merged.jwt_access_ttl_seconds).toBe(120);
    expect(merged.cache_ttl_seconds).toBe(300);
    expect('removed_setting' in merged).toBe(false);
  });
});
