// What the apps use of auth/sign-in/. Inside shared/src, import the files themselves.
export { login, register } from './accounts';
export { createLoginGate, type LoginGate } from './login-gate';
export type { IdentityDeps, PasswordHasher, RequestMeta } from './ports';
export { loginInputSchema, refreshInputSchema, registerInputSchema, setupInputSchema } from './schemas';
export { ALREADY_INITIALIZED, initializeSystem, isInitialized } from './setup';
export { exchangeSignInCode, finishSso, parkSignIn, ssoAvailable, startSso } from './sso/sso';
export { rotateRefreshToken } from './tokens';
export { toUserDetail } from './views';
