import { findUserById } from '@sluice/shared/db/repos';
import { unauthorized } from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * Console routes that need a signed-in user. API keys are not accepted here. The token proves
 * identity only: role and active state are read from the database on every request, so a
 * demoted or deactivated user loses access at once, not when the token expires.
 */
export function requireJwt(): MiddlewareHandler<ConsoleEnv> {
  return async function requireJwtMiddleware(c, next) {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = match?.[1] ? await c.var.deps.jwt.verifyAccess(match[1]) : null;
    if (!claims) throw unauthorized('Missing or invalid access token');
    const user = await findUserById(c.var.deps.db, claims.userId);
    if (!user?.isActive) throw unauthorized('Missing or invalid access token');
    c.set('auth', { userId: user.id, email: user.email, role: user.role });
    await next();
  };
}
