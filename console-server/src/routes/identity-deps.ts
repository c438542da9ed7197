import type { IdentityDeps } from '@sluice/shared/auth/sign-in';
import type { ConsoleDeps } from '../types';

export function identityDeps(deps: ConsoleDeps): IdentityDeps {
  return {
    db: deps.db,
    jwt: deps.jwt,
    passwords: deps.passwords,
    attempts: deps.loginAttempts,
    secrets: deps.secrets,
  };
}
