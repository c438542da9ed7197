import { writeAudit } from '../../db/repos/audit-repo';
import { loadSettings } from '../../db/repos/settings-repo';
import { findUserByEmail, insertUser, type UserRow } from '../../db/repos/users-repo';
import type { Db } from '../../db/types';
import { conflict, tooManyRequests, unauthorized } from '../../http/app-error';
import type { SettingValues } from '../../settings/definitions';
import type { JwtSigner } from '../console/jwt';
import type { IdentityDeps, RequestMeta } from './ports';
import type { LoginInput, RegisterInput } from './schemas';
import { issueTokenPair, type TokenPair } from './tokens';
import { toUserView, type UserView } from './views';

// Verifying against a fixed hash when the email is unknown keeps timing the same for
// unknown emails and wrong passwords.
let dummyHash: Promise<string> | undefined;
/** How long a login waits for the checks under way for its email and address to end. */
const LOGIN_WAIT_MS = 10_000;

export async function register(
  deps: IdentityDeps,
  input: RegisterInput,
  meta: RequestMeta,
): Promise<UserView & { created_at: string }> {
  const passwordHash = await deps.passwords.hash(input.password);
  return deps.db.transaction(async (tx) => {
    if (await findUserByEmail(tx, input.email)) throw conflict('Email already registered');
    const user = await insertUser(tx, {
      email: input.email,
      displayName: input.display_name,
      passwordHash,
      role: 'user',
    });
    await auditOwnAccount(tx, 'auth.register', user, meta);
    return { ...toUserView(user), created_at: user.createdAt.toISOString() };
  });
}

export async function login(
  deps: IdentityDeps,
  input: LoginInput,
  meta: RequestMeta,
): Promise<TokenPair & { user: UserView }> {
  const settings = await loadSettings(deps.db);
  const email = input.email.trim().toLowerCase();
  const attemptKey = `${email}|${meta.ipAddress ?? 'unknown'}`;
  // Only failed checks count, and no more run at once than failures are still allowed
  // (auth/sign-in/login-gate.ts): correct logins wait their turn rather than being refused.
  const entry = await deps.attempts.enter(attemptKey, {
    maxFailures: settings.login_max_failed_attempts,
    waitMs: LOGIN_WAIT_MS,
  });
  if (entry.kind === 'locked') {
    throw tooManyRequests('Too many failed login attempts; try again later', entry.resetMs / 1000);
  }
  if (entry.kind === 'busy') throw tooManyRequests('Too many login attempts at once; try again shortly', 1);
  try {
    return await checkPassword(deps, input, meta, settings, attemptKey);
  } finally {
    await deps.attempts.leave(attemptKey);
  }
}

async function checkPassword(
  deps: IdentityDeps,
  input: LoginInput,
  meta: RequestMeta,
  settings: SettingValues,
  attemptKey: string,
): Promise<TokenPair & { user: UserView }> {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  dummyHash ??= deps.passwords.hash('sluice-timing-equaliser');
  const valid = await deps.passwords.verify(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !valid || !user.isActive || !user.passwordHash) {
    await deps.attempts.failed(attemptKey, settings.login_lockout_seconds * 1000);
    await writeAudit(deps.db, {
      action: 'auth.login_failed',
      userId: user?.id ?? null,
      userEmail: email,
      resourceType: 'user',
      resourceId: user?.id ?? null,
      details: { method: 'password' },
      ...meta,
    });
    throw unauthorized('Invalid email or password');
  }
  await deps.attempts.reset(attemptKey);
  return deps.db.transaction((tx) =>
    completeSignIn(tx, deps.jwt, user, settings, { method: 'password', meta }),
  );
}

/**
 * The end of every successful sign-in (password or SSO), inside the caller's transaction: the
 * auth.login audit record and a fresh token pair with the configured lifetimes.
 */
export async function completeSignIn(
  tx: Db,
  jwt: JwtSigner,
  user: UserRow,
  settings: Pick<SettingValues, 'jwt_access_ttl_seconds' | 'jwt_refresh_ttl_seconds'>,
  how: { method: 'password' | 'sso'; meta: RequestMeta },
): Promise<TokenPair & { user: UserView }> {
  await auditOwnAccount(tx, 'auth.login', user, how.meta, { method: how.method });
  const pair = await issueTokenPair(tx, jwt, user, {
    accessSeconds: settings.jwt_access_ttl_seconds,
    refreshSeconds: settings.jwt_refresh_ttl_seconds,
  });
  return { ...pair, user: toUserView(user) };
}

/**
 * An audit record of a user acting on their own account (registering, signing in), so the
 * user is both the actor and the resource, whichever way they came in.
 */
export async function auditOwnAccount(
  tx: Db,
  action: 'auth.register' | 'auth.login',
  user: UserRow,
  meta: RequestMeta,
  details: Record<string, unknown> = {},
): Promise<void> {
  await writeAudit(tx, {
    action,
    userId: user.id,
    userEmail: user.email,
    resourceType: 'user',
    resourceId: user.id,
    details,
    ...meta,
  });
}
