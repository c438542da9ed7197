import { databaseUnavailable, invalidValue, isDatabaseUnreachable, isInvalidValue } from '@sluice/shared/db';
import { AppError } from '@sluice/shared/http';
import { errorText } from '@sluice/shared/logs/server';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ConsoleEnv } from './types';

/** The console's one error envelope: {error: {message, type, details?}}. */
function render(c: Context, error: AppError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  // RFC 6750: a 401 names the scheme it wants (the console's access tokens are bearer JWTs).
  if (error.status === 401) c.header('WWW-Authenticate', 'Bearer realm="sluice-console"');
  const body: { message: string; type: string; details?: unknown } = {
    message: error.message,
    type: error.type,
  };
  if (error.details !== undefined) body.details = error.details;
  return c.json({ error: body }, error.status as ContentfulStatusCode);
}

export const onConsoleError: ErrorHandler = (err, c) => {
  if (err instanceof AppError) return render(c, err);
  if (err instanceof HTTPException) {
    const status = err.status as AppError['status'];
    const known = new AppError(
      status in { 400: 1, 401: 1, 403: 1, 404: 1, 413: 1, 415: 1 } ? status : 400,
      err.message,
    );
    return render(c, known);
  }
  // The deps are set by the first middleware; printing stays the fallback if they are not.
  const logger = (c as Context<ConsoleEnv>).var.deps?.logger;
  if (isDatabaseUnreachable(err)) {
    logger?.child('console').warn('database unavailable', { error: errorText(err) });
    return render(c, databaseUnavailable(err));
  }
  if (isInvalidValue(err)) return render(c, invalidValue(err));
  const fields = { error: errorText(err), stack: (err as Error).stack };
  if (logger) logger.child('console').error('unhandled error', fields);
  else console.error(JSON.stringify({ level: 'ERROR', target: 'console', message: 'unhandled error' }));
  return render(c, new AppError(500, 'Internal server error'));
};

export const onConsoleNotFound: NotFoundHandler = (c) =>
  render(c, new AppError(404, `No route for ${c.req.method} ${c.req.path}`));
