import {
  badRequest,
  describeJsonInputProblem,
  findJsonInputProblem,
  unprocessable,
} from '@sluice/shared/http';
import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../types';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every JSON body of the API passes findJsonInputProblem before a route sees it: too deep is
 * a 400, a NUL or lone surrogate a 422 naming the field (Postgres cannot store either, and
 * its error would otherwise surface as a 500). The parsed body stays in Hono's cache, so the
 * routes' validators do not parse it again. A body that is not JSON is left to them (400).
 */
export function guardJsonInput(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method) || !isJson(c.req.header('content-type'))) return next();
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return next();
    }
    const problem = findJsonInputProblem(body);
    if (problem?.kind === 'depth') throw badRequest(`Invalid request: ${describeJsonInputProblem(problem)}`);
    if (problem) {
      throw unprocessable(`Invalid request: ${describeJsonInputProblem(problem)}`, [
        { path: problem.path, message: problem.message },
      ]);
    }
    return next();
  };
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());
}
