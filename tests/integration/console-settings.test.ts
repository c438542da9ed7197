// Settings (docs/settings.md): GET, PATCH, one category, the legacy aliases; errors (PATCH 422,
// unknown category 404, admin only: 401/403); secret settings; gateways seeing a change.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../shared/src/db/repos/settings-repo';
import { auditLog, settings } from '../../shared/src/db/schema';
import { SETTING_CATEGORIES } from '../../shared/src/settings/definitions';
import { revealSecretSetting } from '../../shared/src/settings/secrets';
import { type CheckedApi, type CheckedCallOptions, checkedApi, signUp } from '../helpers/checked-api';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';
import { inline, warmCachesOver } from '../helpers/warm-caches';

let h: ConsoleHarness;
let checked: CheckedApi;
let adminToken: string;
let userToken: string;
const IP = '203.0.113.70';
const admin = { email: 'settings-admin@example.com', display_name: 'Sam', password: 'settings-admin-pw' };
const SECRET = 'oidc-client-secret-Zq8vX2';

const api = (method: string, path: string, options?: CheckedCallOptions) =>
  checked.call(method, path, options);

const patch = (values: unknown, token = adminToken) =>
  api('PATCH', '/api/admin/settings', { body: { settings: values }, token });

/** What code that uses the secret (SSO) would get. */
async function storedSecret(): Promise<string> {
  return revealSecretSetting(await loadSettings(h.deps.db), 'oidc_client_secret', h.deps.secrets);
}

async function settingsAudits() {
  return h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update'));
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_settings')));
  checked = await checkedApi(h, { ip: IP });
  const init = await api('POST', '/api/setup/initialize', { body: { admin } });
  adminToken = init.body.access_token;
  const user = { email: 'plain-user@example.com', display_name: 'Pat', password: 'plain-user-pw' };
  userToken = (await signUp(checked, user)).token;
});
afterAll(() => h.close());

describe('reading settings', () => {
  it('returns every category with the documented defaults', async () => {
    const res = await api('GET', '/api/admin/settings', { token: adminToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...SETTING_CATEGORIES].sort());
    expect(res.body).toMatchObject({
      auth: { jwt_access_ttl_seconds: 900, jwt_refresh_ttl_seconds: 604_800 },
      cache: { cache_ttl_seconds: 300 },
      security: {
        signature_drift_seconds: 300,
        nonce_ttl_seconds: 300,
        redact: {},
        inspect_tools: {},
        content: {},
        rate_limit_fail_closed: false,
      },
      budget: { budget_warning_threshold: 0.8, budget_critical_threshold: 0.95 },
      keys: { api_key_max_expiry_days: 365, api_key_default_rate_limit_rpm: 60 },
      general: { data_retention_days: 30, site_name: 'Sluice' },
      oidc: { oidc_enabled: false, oidc_client_secret: null, oidc_scopes: 'openid email profile' },
      audit: { audit_retention_days: 365, audit_mirror_to_clickhouse: true },
    });
    expect(res.body.system).toMatchObject({ upstream_timeout_seconds: 120 });
    expect(Object.keys(res.body.system).sort()).toEqual([
      'console_base_url',
      'gateway_base_url',
      'otel_capture_content',
      'otel_exporter_otlp_endpoint',
      'otel_exporter_otlp_headers',
      'otel_exporter_otlp_protocol',
      'otel_traces_sampler_ratio',
      'upstream_timeout_seconds',
    ]);
    // The collector's headers are write-only, like every secret setting.
    expect(res.body.system.otel_exporter_otlp_headers).toBeNull();
  });

  it('serves each category alone, and the legacy aliases equal it', async () => {
    const all = (await api('GET', '/api/admin/settings', { token: adminToken })).body;
    for (const category of SETTING_CATEGORIES) {
      const one = await api('GET', `/api/admin/settings/category/${category}`, { token: adminToken });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(all[category]);
    }
    for (const legacy of ['system', 'oidc', 'audit']) {
      const alias = await api('GET', `/api/admin/settings/${legacy}`, { token: adminToken });
      expect(alias.status).toBe(200);
      expect(alias.body).toEqual(all[legacy]);
    }
  });

  it('answers an unknown category with 404 in the envelope', async () => {
    const res = await api('GET', '/api/admin/settings/category/billing', { token: adminToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error' });
    expect(res.body.error.message).toContain('auth, cache');
  });

  it('requires a JWT (401) of an admin (403) on every settings route', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/api/admin/settings'],
      ['PATCH', '/api/admin/settings'],
      ['GET', '/api/admin/settings/category/auth'],
      ['GET', '/api/admin/settings/system'],
      ['GET', '/api/admin/settings/oidc'],
      ['GET', '/api/admin/settings/audit'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'PATCH' ? { settings: { site_name: 'Nope' } } : undefined;
      expect((await api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await api(method, path, { body, token: 'not-a-jwt' })).status).toBe(401);
      const forbidden = await api(method, path, { body, token: userToken });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.error.type).toBe('permission_error');
    }
    expect((await loadSettings(h.deps.db)).site_name).toBe('Sluice');
  });
});

describe('changing settings', () => {
  it('refuses bad bodies with 422 (and malformed JSON with 400)', async () => {
    for (const body of [{}, { settings: {} }, { settings: 'x' }, { settings: [1] }, { settings: null }]) {
      const res = await api('PATCH', '/api/admin/settings', { body, token: adminToken });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    const raw = await api('PATCH', '/api/admin/settings', { raw: '{"settings": ', token: adminToken });
    expect(raw.status).toBe(400);
  });

  it('refuses unknown keys and bad values, listing each problem, and persists nothing', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ site_name: 'Good', jwt_access_ttl_seconds: 1200, no_such_setting: 1 }, ['settings.no_such_setting']],
      [{ site_name: 'Good', jwt_access_ttl_seconds: '1200' }, ['settings.jwt_access_ttl_seconds']],
      [{ cache_ttl_seconds: 60, jwt_access_ttl_seconds: 10 }, ['settings.jwt_access_ttl_seconds']],
      [
        { budget_warning_threshold: 1.5, rate_limit_fail_closed: 'yes' },
        ['settings.budget_warning_threshold', 'settings.rate_limit_fail_closed'],
      ],
      [
        { oidc_default_role: 'admin', oidc_allowed_email_domains: ['ok.example', 'NOT A DOMAIN'] },
        ['settings.oidc_default_role', 'settings.oidc_allowed_email_domains.1'],
      ],
    ];
    for (const [values, paths] of cases) {
      const res = await patch(values);
      expect(res.status, JSON.stringify(values)).toBe(422);
      expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(paths.sort());
    }
    // Keys that are object prototype members must not slip through as known settings;
    // __proto__ (an own key after JSON.parse) is an unknown field like any other.
    const cases2: Array<[string, string[]]> = [
      ['{"settings": {"site_name": "Good", "__proto__": {"x": 1}}}', ['settings.__proto__']],
      [
        '{"settings": {"site_name": "Good", "constructor": 2, "toString": 3}}',
        ['settings.constructor', 'settings.toString'],
      ],
    ];
    for (const [raw, paths] of cases2) {
      const proto = await api('PATCH', '/api/admin/settings', { raw, token: adminToken });
      expect(proto.status).toBe(422);
      expect(proto.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(paths);
    }
    expect(await h.deps.db.select().from(settings)).toEqual([]);
    expect(await settingsAudits()).toEqual([]);
  });

  it('stores valid values in one go, returns them, and audits old and new values', async () => {
    const res = await patch({
      jwt_access_ttl_seconds: 1800,
      site_name: 'Acme AI',
      oidc_allowed_email_domains: ['acme.example'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      updated: ['jwt_access_ttl_seconds', 'site_name', 'oidc_allowed_email_domains'],
      settings: {
        jwt_access_ttl_seconds: 1800,
        site_name: 'Acme AI',
        oidc_allowed_email_domains: ['acme.example'],
      },
    });
    const all = (await api('GET', '/api/admin/settings', { token: adminToken })).body;
    expect(all.auth.jwt_access_ttl_seconds).toBe(1800);
    expect(all.general.site_name).toBe('Acme AI');
    expect(all.oidc.oidc_allowed_email_domains).toEqual(['acme.example']);
    const [audit] = await settingsAudits();
    expect(audit).toMatchObject({
      userEmail: admin.email,
      resourceType: 'settings',
      ipAddress: IP,
      userAgent: 'vitest',
    });
    expect(audit?.details).toEqual({
      keys: ['jwt_access_ttl_seconds', 'site_name', 'oidc_allowed_email_domains'],
      changes: {
        jwt_access_ttl_seconds: { old: 900, new: 1800 },
        site_name: { old: 'Sluice', new: 'Acme AI' },
        oidc_allowed_email_domains: { old: [], new: ['acme.example'] },
      },
    });
  });

  it('applies a changed jwt_access_ttl_seconds to the next login', async () => {
    const login = await api('POST', '/api/auth/login', {
      body: { email: admin.email, password: admin.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.expires_in).toBe(1800);
    const claims = JSON.parse(Buffer.from(login.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(1800);
  });

  it('publishes site_name before sign-in (GET /api/setup/status), for the sign-in page and the tab', async () => {
    expect((await patch({ site_name: 'Acme AI' })).status).toBe(200);
    const status = await api('GET', '/api/setup/status');
    expect(status.body).toMatchObject({ initialized: true, site_name: 'Acme AI', gateway_base_url: '' });
    expect((await patch({ gateway_base_url: 'https://ai.acme.example' })).status).toBe(200);
    expect((await api('GET', '/api/setup/status')).body.gateway_base_url).toBe('https://ai.acme.example');
    expect((await patch({ gateway_base_url: '' })).status).toBe(200);
  });

  it('drops the row when a setting goes back to its default', async () => {
    expect((await patch({ site_name: 'Sluice' })).status).toBe(200);
    const rows = await h.deps.db.select().from(settings).where(eq(settings.key, 'site_name'));
    expect(rows).toEqual([]);
    expect((await loadSettings(h.deps.db)).site_name).toBe('Sluice');
  });

  it('serialises concurrent changes, so each audit record has the true old value', async () => {
    const [a, b] = await Promise.all([
      patch({ jwt_refresh_ttl_seconds: 3600 }),
      patch({ jwt_refresh_ttl_seconds: 7200 }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await h.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.update'), eq(auditLog.resourceType, 'settings')));
    const refresh = rows
      .map((r) => (r.details.changes as Record<string, { old: number; new: number }>).jwt_refresh_ttl_seconds)
      .filter(Boolean);
    expect(refresh).toHaveLength(2);
    const first = refresh.find((c) => c?.old === 604_800);
    expect(first).toBeDefined();
    expect(refresh.find((c) => c !== first)?.old).toBe(first?.new);
  });
});

describe('secret settings', () => {
  it('are write-only: masked in every response, redacted in the audit, sealed at rest', async () => {
    const res = await patch({ oidc_client_secret: SECRET, oidc_client_id: 'sluice-console' });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({ oidc_client_secret: '********', oidc_client_id: 'sluice-console' });
    const texts = [res.text];
    for (const path of [
      '/api/admin/settings',
      '/api/admin/settings/category/oidc',
      '/api/admin/settings/oidc',
    ]) {
      const read = await api('GET', path, { token: adminToken });
      texts.push(read.text);
      expect(read.body.oidc?.oidc_client_secret ?? read.body.oidc_client_secret).toBe('********');
    }
    texts.push((await api('GET', '/api/audit/logs?limit=1000', { token: adminToken })).text);
    for (const text of texts) expect(text).not.toContain(SECRET);
    const audits = await settingsAudits();
    expect(JSON.stringify(audits)).not.toContain(SECRET);
    const secretAudit = audits.find((a) => (a.details.keys as string[]).includes('oidc_client_secret'));
    expect(secretAudit?.details.changes).toMatchObject({
      oidc_client_secret: { old: null, new: '********' },
    });
    const [row] = await h.deps.db.select().from(settings).where(eq(settings.key, 'oidc_client_secret'));
    expect(row?.value).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(await storedSecret()).toBe(SECRET);
  });

  it('keep their value when the mask is sent back, and clear with null', async () => {
    const same = await patch({ oidc_client_secret: '********', oidc_enabled: true });
    expect(same.body).toEqual({ updated: ['oidc_enabled'], settings: { oidc_enabled: true } });
    expect(await storedSecret()).toBe(SECRET);
    const cleared = await patch({ oidc_client_secret: null });
    expect(cleared.body).toEqual({ updated: ['oidc_client_secret'], settings: { oidc_client_secret: null } });
    const oidc = (await api('GET', '/api/admin/settings/oidc', { token: adminToken })).body;
    expect(oidc.oidc_client_secret).toBeNull();
    expect(await storedSecret()).toBe('');
    expect((await patch({ oidc_client_secret: 42 })).status).toBe(422);
  });
});

describe("the gateways' isolate caches (real Redis through the Upstash client)", () => {
  it('see a PATCH on their next version read, however long their refresh interval', async () => {
    const warm = await warmCachesOver(h.deps.db, h.deps.redis);
    const before = (await warm.settings(inline)).cache_ttl_seconds;
    expect((await patch({ cache_ttl_seconds: before + 17 })).status).toBe(200);
    await warm.board.refresh(0);
    expect((await warm.settings(inline)).cache_ttl_seconds).toBe(before + 17);
  });
});

describe('guardrails try box', () => {
  it('shows what a text becomes under rules as given, refuses rules that would not save, stores nothing', async () => {
    const tried = await api('POST', '/api/admin/settings/guardrails/try', {
      token: adminToken,
      body: { text: 'ping a@b.io', redact: { detectors: ['email'] } },
    });
    expect(tried.status).toBe(200);
    expect(tried.body).toEqual({
      redact: { request: 'ping [REDACTED:email]', response: 'ping a@b.io', logs: 'ping [REDACTED:email]' },
      content: { blocked: false, message: null, flagged: [] },
    });
    const bad = await api('POST', '/api/admin/settings/guardrails/try', {
      token: adminToken,
      body: { text: 'x', redact: { detectors: ['ssn'] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([{ path: 'redact.detectors.0', message: expect.any(String) }]);
  });
});

describe('OpenAPI', () => {
  it('documents every response seen above', () => {
    expect(checked.problems).toEqual([]);
    const mine = checked.conformance.operations().filter((op) => op.includes('/api/admin/settings'));
    expect(mine.filter((op) => !checked.conformance.exercisedOperations().includes(op))).toEqual([]);
  });
});
