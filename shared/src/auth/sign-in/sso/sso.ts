import { writeAudit } from '../../../db/repos/audit-repo';
import { loadSettings } from '../../../db/repos/settings-repo';
import { findUserByEmail, insertUser } from '../../../db/repos/users-repo';
import type { Db } from '../../../db/types';
import { AppError, badRequest, unauthorized } from '../../../http/app-error';
import type { SecretBox } from '../../../secrets/secret-box';
import type { SettingValues } from '../../../settings/definitions';
import { revealSecretSetting } from '../../../settings/secrets';
import type { RedisPort } from '../../../stores/redis-port';
import { toBase64Url } from '../../../util/encoding';
import type { JwtSigner } from '../../console/jwt';
import { auditOwnAccount, completeSignIn } from '../accounts';
import type { RequestMeta } from '../ports';
import type { TokenPair } from '../tokens';
import type { UserView } from '../views';
import { discover, exchangeCode, SsoRefused, userInfoClaims, verifyIdToken } from './oidc';
import { createOneTimeStore } from './state-store';

export interface SsoDeps {
  db: Db;
  redis: RedisPort;
  jwt: JwtSigner;
  secrets: SecretBox;
  fetch?: typeof fetch;
}

interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
  /** A console page to return to with a one-time code (browser flow); null: answer JSON. */
  returnTo: string | null;
}

export type SsoSignIn = TokenPair & { user: UserView };

/** The ID token a sign-in brought, with whom it is from and for (MCP servers exchange it). */
export interface SsoIdentity {
  issuer: string;
  clientId: string;
  idToken: string;
}

const STATE_PREFIX = 'sluice:sso:state:';
const CODE_PREFIX = 'sluice:sso:code:';
/** The UI exchanges its one-time code at once; a minute is plenty. */
const CODE_TTL_SECONDS = 60;

function random(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  return toBase64Url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
}

/** Where the identity provider sends the browser back: oidc_redirect_uri, else derived from console_base_url. */
export function redirectUriOf(
  settings: Pick<SettingValues, 'oidc_redirect_uri' | 'console_base_url'>,
): string {
  if (settings.oidc_redirect_uri) return settings.oidc_redirect_uri;
  if (!settings.console_base_url) return '';
  return `${settings.console_base_url.replace(/\/+$/, '')}${SSO_CALLBACK_PATH}`;
}

/** The console's SSO callback (console-server/src/routes/sso.ts, under /api/auth/sso). */
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

/** The oidc settings that are still missing for SSO to work (empty: it is on and complete). */
async function missingOidcSettings(deps: Pick<SsoDeps, 'db' | 'secrets'>) {
  const settings = await loadSettings(deps.db);
  const clientSecret = await revealSecretSetting(settings, 'oidc_client_secret', deps.secrets);
  const missing = [
    !settings.oidc_enabled && 'oidc_enabled',
    !settings.oidc_issuer_url && 'oidc_issuer_url',
    !settings.oidc_client_id && 'oidc_client_id',
    !clientSecret && 'oidc_client_secret',
    !redirectUriOf(settings) && 'oidc_redirect_uri',
  ].filter((name): name is string => typeof name === 'string');
  return { settings, clientSecret, missing };
}

/** The oidc settings, or 500 naming the missing settings when SSO is off or incomplete. */
async function oidcConfig(deps: SsoDeps) {
  const { settings, clientSecret, missing } = await missingOidcSettings(deps);
  if (missing.length > 0) throw new AppError(500, `OIDC is not configured (set ${missing.join(', ')})`);
  return { settings, clientSecret };
}

/** GET /api/auth/sso/status: whether a sign-in page should offer SSO (never which settings are missing). */
export async function ssoAvailable(deps: Pick<SsoDeps, 'db' | 'secrets'>): Promise<boolean> {
  return (await missingOidcSettings(deps)).missing.length === 0;
}

/** A same-site path only, so the browser flow cannot be turned into an open redirect. */
function safeReturnTo(value: string | undefined): string | null {
  if (!value) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    throw badRequest('return_to must be a path on this console, such as /ui/');
  }
  return value;
}

/** GET /api/auth/sso/authorize: state, nonce and PKCE verifier in Redis, then the provider's URL. */
export async function startSso(deps: SsoDeps, options: { returnTo?: string } = {}): Promise<string> {
  const { settings } = await oidcConfig(deps);
  const returnTo = safeReturnTo(options.returnTo);
  const discovery = await discover(settings.oidc_issuer_url, deps.fetch).catch((error: unknown) => {
    throw new AppError(
      502,
      `OIDC provider unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const state = random();
  const pending: PendingSignIn = { nonce: random(), codeVerifier: random(48), returnTo };
  await createOneTimeStore<PendingSignIn>(deps.redis, STATE_PREFIX).put(
    state,
    pending,
    settings.nonce_ttl_seconds,
  );
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.oidc_client_id,
    redirect_uri: redirectUriOf(settings),
    scope: settings.oidc_scopes,
    state,
    nonce: pending.nonce,
    code_challenge: await s256(pending.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

async function auditFailure(
  deps: SsoDeps,
  meta: RequestMeta,
  email: string | null,
  reason: string,
): Promise<void> {
  await writeAudit(deps.db, {
    action: 'auth.login_failed',
    userId: null,
    userEmail: email,
    resourceType: 'user',
    resourceId: null,
    details: { method: 'sso', reason },
    ...meta,
  });
}

async function signInFailed(
  deps: SsoDeps,
  meta: RequestMeta,
  email: string | null,
  reason: string,
): Promise<never> {
  await auditFailure(deps, meta, email, reason);
  throw unauthorized(`SSO sign-in failed: ${reason}`);
}

type Claims = { email: string; name: string };

/** Verified email, allowed domain: what an ID token must carry to sign anyone in. */
function acceptedClaims(payload: Record<string, unknown>, allowedDomains: string[]): Claims {
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  if (!email) throw new SsoRefused('the ID token has no email');
  if (payload.email_verified !== true) throw new SsoRefused(`email ${email} is not verified`);
  const domain = email.split('@')[1] ?? '';
  if (allowedDomains.length > 0 && !allowedDomains.includes(domain)) {
    throw new SsoRefused(`email domain ${domain} is not allowed`);
  }
  const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : email;
  return { email, name: name.slice(0, 100) };
}

/**
 * GET /api/auth/sso/callback: the state once (401 when unknown, expired or reused), the code
 * exchanged with the PKCE verifier, the ID token checked, the user found by verified email or
 * created (when allowed, with the configured role), then the console's own token pair.
 */
export async function finishSso(
  deps: SsoDeps,
  query: { code?: string; state?: string },
  meta: RequestMeta,
): Promise<{ signIn: SsoSignIn; returnTo: string | null; identity: SsoIdentity | null }> {
  // Every failed callback leaves an auth.login_failed record, whatever its status.
  if (!query.code || !query.state) {
    await auditFailure(deps, meta, null, 'code or state missing');
    throw badRequest('code and state are required');
  }
  const { settings, clientSecret } = await oidcConfig(deps).catch(async (error: unknown) => {
    await auditFailure(deps, meta, null, error instanceof Error ? error.message : String(error));
    throw error;
  });
  const pending = await createOneTimeStore<PendingSignIn>(deps.redis, STATE_PREFIX).take(query.state);
  if (!pending) return signInFailed(deps, meta, null, 'unknown, expired or reused state');
  let claims: Claims;
  let identity: SsoIdentity;
  try {
    const discovery = await discover(settings.oidc_issuer_url, deps.fetch);
    const clientId = settings.oidc_client_id;
    const tokens = await exchangeCode(
      {
        discovery,
        code: query.code,
        codeVerifier: pending.codeVerifier,
        redirectUri: redirectUriOf(settings),
        clientId,
        clientSecret,
      },
      deps.fetch,
    );
    const payload = await verifyIdToken(tokens.idToken, {
      discovery,
      clientId,
      nonce: pending.nonce,
      leewaySeconds: settings.signature_drift_seconds,
    });
    const profile =
      typeof payload.email === 'string'
        ? {}
        : await userInfoClaims(discovery, tokens.accessToken, payload.sub, deps.fetch);
    claims = acceptedClaims({ ...profile, ...payload }, settings.oidc_allowed_email_domains);
    identity = { issuer: discovery.issuer, clientId, idToken: tokens.idToken };
  } catch (error) {
    if (error instanceof SsoRefused) return signInFailed(deps, meta, null, error.message);
    throw error;
  }
  const signIn = await signInUser(deps, claims, settings, meta);
  return { signIn, returnTo: pending.returnTo, identity };
}

async function signInUser(
  deps: SsoDeps,
  claims: Claims,
  settings: Awaited<ReturnType<typeof loadSettings>>,
  meta: RequestMeta,
): Promise<SsoSignIn> {
  const existing = await findUserByEmail(deps.db, claims.email);
  if (existing && !existing.isActive) return signInFailed(deps, meta, claims.email, 'account is disabled');
  if (!existing && !settings.oidc_auto_create_users) {
    return signInFailed(deps, meta, claims.email, 'no account, and accounts are not created by SSO');
  }
  return deps.db.transaction(async (tx) => {
    const user =
      existing ??
      (await insertUser(tx, {
        email: claims.email,
        displayName: claims.name,
        passwordHash: null,
        role: settings.oidc_default_role,
      }));
    if (!existing) {
      await auditOwnAccount(tx, 'auth.register', user, meta, { method: 'sso', role: user.role });
    }
    return completeSignIn(tx, deps.jwt, user, settings, { method: 'sso', meta });
  });
}

/** Browser flow: park the sign-in behind a one-time code the UI exchanges (tokens never in a URL). */
export async function parkSignIn(deps: SsoDeps, signIn: SsoSignIn): Promise<string> {
  const code = random();
  await createOneTimeStore<SsoSignIn>(deps.redis, CODE_PREFIX).put(code, signIn, CODE_TTL_SECONDS);
  return code;
}

/** POST /api/auth/sso/exchange: the parked sign-in, once; 401 for an unknown or used code. */
export async function exchangeSignInCode(deps: SsoDeps, code: string): Promise<SsoSignIn> {
  const signIn = await createOneTimeStore<SsoSignIn>(deps.redis, CODE_PREFIX).take(code);
  if (!signIn) throw unauthorized('Unknown or used sign-in code');
  return signIn;
}
