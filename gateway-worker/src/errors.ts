import { databaseUnavailable, invalidValue, isDatabaseUnreachable, isInvalidValue } from '@sluice/shared/db';
import { AppError, discardUnreadBody } from '@sluice/shared/http';
import { errorText } from '@sluice/shared/logs/server';
import { rpcErrorBody } from '@sluice/shared/mcp/gateway';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { GatewayEnv } from './types';

export const BEARER_CHALLENGE = 'Bearer realm="sluice"';

/**
 * The gateway's one error envelope, {error: {message, type}}. The messages endpoints'
 * clients (count_tokens too) also expect a top-level type: "error", so those get it added here; /mcp gets
 * JSON-RPC error objects.
 */
function render(c: Context, error: AppError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  // RFC 6750 (and MCP's authorization spec): a 401 names the scheme it wants.
  if (error.status === 401 && !error.headers['WWW-Authenticate'])
    c.header('WWW-Authenticate', BEARER_CHALLENGE);
  // /mcp speaks JSON-RPC: its clients read {jsonrpc, id, error: {code, message}}.
  if (c.req.path === '/mcp' || c.req.path.startsWith('/mcp/')) {
    return c.json(rpcErrorBody(error), error.status as ContentfulStatusCode);
  }
  const envelope = { error: { message: error.message, type: error.type } };
  const body = c.req.path.startsWith('/v1/messages') ? { type: 'error', ...envelope } : envelope;
  return c.json(body, error.status as ContentfulStatusCode);
}

/**
 * A refusal that came before the request's body was read reads it first, so that the client
 * gets it and its connection stays usable (shared/http/discard-body.ts).
 */
async function answerRefusal(c: Context, error: AppError): Promise<Response> {
  await discardUnreadBody(c.req.raw);
  return render(c, error);
}

export const onGatewayError: ErrorHandler = (err, c) => answerRefusal(c, asAppError(err, c));

function asAppError(err: Error, c: Context): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException && err.status < 500) {
    return new AppError(err.status === 413 ? 413 : 400, err.message);
  }
  // The deps are set by the first middleware; printing stays the fallback if they are not.
  const logger = (c as Context<GatewayEnv>).get('deps')?.logger;
  if (isDatabaseUnreachable(err)) {
    logger?.child('gateway').warn('database unavailable', { error: errorText(err) });
    return databaseUnavailable(err);
  }
  if (isInvalidValue(err)) return invalidValue(err);
  if (logger) logger.child('gateway').error('unhandled error', { error: errorText(err) });
  else console.error(JSON.stringify({ level: 'ERROR', target: 'gateway', message: 'unhandled error' }));
  return new AppError(500, 'Internal server error');
}

export const onGatewayNotFound: NotFoundHandler = (c) =>
  answerRefusal(c, new AppError(404, `No route for ${c.req.method} ${c.req.path}`));
