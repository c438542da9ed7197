import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error';
import { parseSettingsPatch } from './patch';

function problems(input: Record<string, unknown>): unknown {
  try {
    parseSettingsPatch(input);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, details: error.details };
    throw error;
  }
  throw new Error('expected a 422');
}

describe('parseSettingsPatch', () => {
  it('returns every valid change in order', () => {
    expect(
      parseSettingsPatch({ cache_ttl_seconds: 0, site_name: 'Acme', rate_limit_fail_closed: true }),
    ).toEqual([
      { key: 'cache_ttl_seconds', value: 0 },
      { key: 'site_name', value: 'Acme' },
      { key: 'rate_limit_fail_closed', value: true },
    ]);
  });

  it('reports every unknown key and bad value at once', () => {
    expect(
      problems({ nope: 1, jwt_access_ttl_seconds: 59, budget_critical_threshold: '0.9', site_name: 'ok' }),
    ).toEqual({
      status: 422,
      details: [
        { path: 'settings.nope', message: 'unknown setting' },
        { path: 'settings.jwt_access_ttl_seconds', message: expect.any(String) },
        { path: 'settings.budget_critical_threshold', message: expect.any(String) },
      ],
    });
  });

  it('refuses an empty patch and prototype member names', () => {
    expect(problems({})).toMatchObject({ status: 422 });
    expect(problems({ toString: 1, hasOwnProperty: 2 })).toMatchObject({
      details: [{ path: 'settings.toString' }, { path: 'settings.hasOwnProperty' }],
    });
  });

  it('treats the mask as "unchanged" and null as "clear" for secrets only', () => {
    expect(parseSettingsPatch({ oidc_client_secret: '********' })).toEqual([]);
    expect(parseSettingsPatch({ oidc_client_secret: null })).toEqual([
      { key: 'oidc_client_secret', value: '' },
    ]);
    expect(parseSettingsPatch({ oidc_client_id: '********' })).toEqual([
      { key: 'oidc_client_id', value: '********' },
    ]);
    expect(problems({ oidc_client_id: null })).toMatchObject({ status: 422 });
  });

  it('validates the oidc additions', () => {
    expect(problems({ oidc_scopes: 'email profile' })).toMatchObject({
      details: [{ message: 'must include openid' }],
    });
    expect(problems({ oidc_default_role: 'admin' })).toMatchObject({ status: 422 });
    expect(
      parseSettingsPatch({ oidc_allowed_email_domains: ['example.com', 'mail.example.org'] }),
    ).toHaveLength(1);
  });
});
