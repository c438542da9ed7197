// Single sign-on (docs/users-and-auth.md): GET /api/auth/sso/authorize, GET /api/auth/sso/callback,
// its errors (400 / 401 / 500), settings category oidc. The authorization-code flow with PKCE
// against a real OpenID Provider (oidc-provider on loopback), driven over HTTP as a browser would,
// and every failure answering its status with an auth.login_failed record.
import { createServer, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, users } from '../../shared/src/db/schema';
import { type OidcAccount, type RunningOidcProvider, startOidcProvider } from '../fakes/oidc-provider';
import { type ConsoleHarness, consoleHarness } from '../helpers/console';
import { appEnv, freshDatabase } from '../helpers/stores';

const REDIRECT_URI = 'http://console.test/api/auth/sso/callback';
let h: ConsoleHarness;
let idp: RunningOidcProvider;
let adminToken: string;

const person = (name: string, over: Partial<OidcAccount> = {}): OidcAccount => ({
  sub: `sub-${name}`,
  email: `${name}@example.com`,
  email_verified: true,
  name: `Person ${name}`,
  ...over,
});

async function settings(values: Record<string, unknown>) {
  const res = await h.call('PATCH', '/api/admin/settings', { token: adminToken, body: { settings: values } });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** authorize → the provider's login and consent → back at the redirect URI with code and state. */
async function browse(account: OidcAccount, authorizeQuery = ''): Promise<{ code: string; state: string }> {
  idp.signInAs(account);
  const start = await h.call('GET', `/api/auth/sso/authorize${authorizeQuery}`);
  expect(start.status).toBe(302);
  let location = start.headers.get('location') ?? '';
  const jar = new Map<string, string>();
  for (let hop = 0; hop < 10 && !location.startsWith(REDIRECT_URI); hop++) {
    const res = await fetch(new URL(location, idp.issuer), {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
    location = res.headers.get('location') ?? '';
    if (!location) throw new Error(`the provider stopped at ${res.status}: ${await res.text()}`);
  }
  const back = new URL(location);
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

const callback = (query: { code?: string; state?: string }) =>
  h.call('GET', `/api/auth/sso/callback?${new URLSearchParams(query as Record<string, string>)}`);

async function failuresFor(email: string | null): Promise<number> {
  const rows = await h.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.login_failed')));
  return rows.filter((r) => (r.details as { method?: string }).method === 'sso' && r.userEmail === email)
    .length;
}

beforeAll(async () => {
  h = await consoleHarness(appEnv(await freshDatabase('sluice_it_console_sso')));
  const admin = { email: 'sso-admin@example.com', display_name: 'A', password: 'sso-admin-password' };
  const init = await h.call('POST', '/api/setup/initialize', { body: { admin } });
  adminToken = ((await init.json()) as { access_token: string }).access_token;
  idp = await startOidcProvider(REDIRECT_URI);
  await settings({
    oidc_enabled: true,
    oidc_issuer_url: idp.issuer,
    oidc_client_id: idp.clientId,
    oidc_client_secret: idp.clientSecret,
    oidc_redirect_uri: REDIRECT_URI,
    oidc_default_role: 'viewer',
  });
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await h?.close();
});

describe('SSO sign-in through a real OpenID Provider', () => {
  it('says it is available to a signed-out sign-in page', async () => {
    const res = await h.call('GET', '/api/auth/sso/status');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ enabled: true });
  });

  it('creates the account with the configured role and answers the token response', async () => {
    const { code, state } = await browse(person('ada'));
    const res = await callback({ code, state });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as {
      access_token: string;
      token_type: string;
      user: Record<string, unknown>;
    };
    expect(body).toMatchObject({ token_type: 'Bearer', user: { email: 'ada@example.com', role: 'viewer' } });
    const me = await h.call('GET', '/api/auth/me', { token: body.access_token });
    expect(await me.json()).toMatchObject({ email: 'ada@example.com', display_name: 'Person ada' });
    const logins = await h.deps.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login'));
    expect(
      logins.some(
        (r) => r.userEmail === 'ada@example.com' && (r.details as { method: string }).method === 'sso',
      ),
    ).toBe(true);

    // The same person again: the same account.
    const again = await browse(person('ada'));
    const second = (await (await callback(again)).json()) as { user: { id: string } };
    expect(second.user.id).toBe(body.user.id);
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'ada@example.com'))).toHaveLength(1);
  });

  it('refuses a replayed callback, an unknown state and a missing code or state', async () => {
    const { code, state } = await browse(person('bob'));
    expect((await callback({ code, state })).status).toBe(200);
    const before = await failuresFor(null);
    const replay = await callback({ code, state });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: { type: 'authentication_error' } });
    expect((await callback({ code, state: 'not-a-state' })).status).toBe(401);
    expect(await failuresFor(null)).toBe(before + 2);
    expect((await callback({ state })).status).toBe(400);
    expect((await callback({ code })).status).toBe(400);
    expect(await failuresFor(null)).toBe(before + 4);
  });

  it('refuses a state older than nonce_ttl_seconds', async () => {
    await settings({ nonce_ttl_seconds: 1 });
    try {
      const { code, state } = await browse(person('slow'));
      // Kept with a TTL on Redis's clock: once Redis has let it go, the callback comes too late.
      await vi.waitFor(async () => expect(await h.deps.redis.exists(`sluice:sso:state:${state}`)).toBe(0), {
        timeout: 5_000,
        interval: 50,
      });
      expect((await callback({ code, state })).status).toBe(401);
    } finally {
      await settings({ nonce_ttl_seconds: 300 });
    }
  });

  it('refuses an unverified email and a domain that is not allowed, with an audit record', async () => {
    const before = await failuresFor(null);
    const unverified = await browse(person('eve', { email_verified: false }));
    const res = await callback(unverified);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('not verified');
    await settings({ oidc_allowed_email_domains: ['example.org'] });
    try {
      const outsider = await browse(person('mallory'));
      const refused = await callback(outsider);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
        'domain example.com',
      );
    } finally {
      await settings({ oidc_allowed_email_domains: [] });
    }
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'mallory@example.com'))).toHaveLength(
      0,
    );
    expect(await failuresFor(null)).toBe(before + 2);
  });

  it('delivers a browser sign-in to the console page through a one-time code', async () => {
    const { code, state } = await browse(person('carol'), '?return_to=/ui/');
    const res = await callback({ code, state });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '', 'http://console.test');
    expect(back.pathname).toBe('/ui/');
    const ssoCode = back.searchParams.get('sso_code') ?? '';
    expect(back.toString()).not.toContain('access_token');
    const exchanged = await h.call('POST', '/api/auth/sso/exchange', { body: { code: ssoCode } });
    expect(await exchanged.json()).toMatchObject({ user: { email: 'carol@example.com' } });
    expect((await h.call('POST', '/api/auth/sso/exchange', { body: { code: ssoCode } })).status).toBe(401);
    expect((await h.call('GET', '/api/auth/sso/authorize?return_to=https://evil.example/')).status).toBe(400);
  });
});

describe('ID tokens the provider did not sign for us', () => {
  let fake: Server;
  let fakeIssuer: string;
  let published: Awaited<ReturnType<typeof generateKeyPair>>;
  let idToken: (nonce: string) => Promise<string>;

  beforeAll(async () => {
    // A stand-in issuer whose token endpoint answers with the token the test chooses.
    published = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(published.publicKey)), kid: 'published', alg: 'RS256', use: 'sig' };
    fake = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', fakeIssuer);
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/.well-known/openid-configuration') {
        return json({
          issuer: fakeIssuer,
          authorization_endpoint: `${fakeIssuer}/auth`,
          token_endpoint: `${fakeIssuer}/token`,
          jwks_uri: `${fakeIssuer}/jwks`,
        });
      }
      if (url.pathname === '/jwks') return json({ keys: [jwk] });
      if (url.pathname === '/token')
        return json({ id_token: await idToken(pendingNonce), token_type: 'Bearer' });
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const address = fake.address();
    fakeIssuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    await settings({ oidc_issuer_url: fakeIssuer });
  });
  afterAll(async () => {
    await settings({ oidc_issuer_url: idp.issuer });
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });

  let pendingNonce = '';
  async function attempt(): Promise<Response> {
    const start = await h.call('GET', '/api/auth/sso/authorize');
    const to = new URL(start.headers.get('location') ?? '');
    pendingNonce = to.searchParams.get('nonce') ?? '';
    return callback({ code: 'any-code', state: to.searchParams.get('state') ?? '' });
  }

  const claims = { email: 'x@example.com', email_verified: true };
  const sign = async (key: CryptoKey, kid: string, audience: string, nonce: string) =>
    new SignJWT({ ...claims, nonce })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(fakeIssuer)
      .setAudience(audience)
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  it('refuses a token signed by another key', async () => {
    const other = await generateKeyPair('RS256');
    idToken = (nonce) => sign(other.privateKey, 'published', idp.clientId, nonce);
    const res = await attempt();
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      'ID token rejected',
    );
  });

  it('refuses a token for another audience, and one for another nonce; accepts the right one', async () => {
    idToken = (nonce) => sign(published.privateKey, 'published', 'someone-else', nonce);
    const wrongAudience = await attempt();
    expect(wrongAudience.status).toBe(401);
    expect(((await wrongAudience.json()) as { error: { message: string } }).error.message).toContain('aud');
    idToken = () => sign(published.privateKey, 'published', idp.clientId, 'another-nonce');
    expect((await attempt()).status).toBe(401);
    // The control: the same stand-in, signing correctly, signs the person in.
    idToken = (nonce) => sign(published.privateKey, 'published', idp.clientId, nonce);
    expect((await attempt()).status).toBe(200);
  });
});

describe('console_base_url', () => {
  it('gives the redirect URI when oidc_redirect_uri is empty: <console_base_url>/api/auth/sso/callback', async () => {
    await settings({ oidc_redirect_uri: '', console_base_url: 'http://console.test/' });
    try {
      const start = await h.call('GET', '/api/auth/sso/authorize');
      const sent = new URL(start.headers.get('location') ?? '').searchParams.get('redirect_uri');
      expect(sent).toBe(REDIRECT_URI);
      const { code, state } = await browse(person('grace'));
      expect((await callback({ code, state })).status).toBe(200);
      await settings({ console_base_url: '' });
      expect((await h.call('GET', '/api/auth/sso/authorize')).status).toBe(500);
    } finally {
      await settings({ oidc_redirect_uri: REDIRECT_URI, console_base_url: '' });
    }
  });
});

describe('without OIDC configured', () => {
  it('answers 500 with a clear message', async () => {
    await settings({ oidc_enabled: false });
    try {
      // A sign-in page learns only that SSO is unavailable, not which settings are missing.
      expect(await (await h.call('GET', '/api/auth/sso/status')).json()).toEqual({ enabled: false });
      const start = await h.call('GET', '/api/auth/sso/authorize');
      expect(start.status).toBe(500);
      expect(((await start.json()) as { error: { message: string } }).error.message).toContain(
        'OIDC is not configured',
      );
      const before = await failuresFor(null);
      expect((await callback({ code: 'c', state: 's' })).status).toBe(500);
      expect(await failuresFor(null)).toBe(before + 1);
    } finally {
      await settings({ oidc_enabled: true });
    }
  });
});
