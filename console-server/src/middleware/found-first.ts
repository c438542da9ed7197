import { unprocessable } from '@sluice/shared/http';
import type { Context, MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

/**
 * Tells the validation hook how to find the resource a route's path names, so that an
 * unknown id with a bad body is a 404 rather than a 422. `find` throws the route's own 404
 * (the domain getters do); it runs only when the request is about to be refused, so a valid
 * request pays no extra query.
 */
export function foundFirst(
  find: (c: Context<ConsoleEnv>) => Promise<unknown>,
): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    c.set('findResource', () => find(c));
    await next();
  };
}

/** An empty body, `{}` and `null` are no body; anything else sent to a body-less write is a 422. */
export async function refuseBody(c: Context<ConsoleEnv>): Promise<void> {
  const text = (await c.req.text()).trim();
  if (text === '' || text === '{}' || text === 'null') return;
  await c.var.findResource?.();
  throw unprocessable('Invalid request: this operation takes no request body', [
    { path: '', message: 'takes no request body' },
  ]);
}

/** The `{id}` path parameter, already validated by the time a lookup runs. */
export function pathId(c: Context<ConsoleEnv>): string {
  return c.req.param('id') ?? '';
}
