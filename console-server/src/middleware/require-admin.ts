import { forbidden } from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';
import { requireJwt } from './require-jwt';

/** Admin endpoints: a valid JWT (401 otherwise) whose role is admin (403 otherwise). */
export function requireAdmin(): MiddlewareHandler<ConsoleEnv> {
  const jwt = requireJwt();
  return async function requireAdminMiddleware(c, next) {
    await jwt(c, async () => {
      if (c.var.auth.role !== 'admin') throw forbidden('Admin role required');
      await next();
    });
  };
}
