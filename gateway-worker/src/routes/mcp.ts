import { AppError } from '@sluice/shared/http/app-error';
import { describeJsonInputProblem, findJsonInputProblem } from '@sluice/shared/http/json-input';
import { handleMcpDelete, handleMcpPost, SESSION_HEADER } from '@sluice/shared/mcp/gateway/handle-mcp';
import { McpRpcError, RPC } from '@sluice/shared/mcp/gateway/jsonrpc';
import { type Context, Hono } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';

async function readJsonRpcBody(c: Context<GatewayEnv>): Promise<unknown> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new McpRpcError(400, RPC.parseError, 'Parse error: the body must be JSON', null);
  }
  const problem = findJsonInputProblem(body);
  if (problem) {
    const id = rpcIdOf(body);
    throw new McpRpcError(
      400,
      RPC.invalidRequest,
      `Invalid request: ${describeJsonInputProblem(problem)}`,
      id,
    );
  }
  return body;
}

/** The request's id when it has a usable one, so the client can match the error to it. */
function rpcIdOf(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** null on /mcp; the server's name on /mcp/{server}. */
const scopeOf = (c: Context<GatewayEnv>): string | null => c.req.param('server') ?? null;

async function post(c: Context<GatewayEnv>) {
  return handleMcpPost(
    {
      principal: c.var.principal,
      waitUntil: backgroundFor(c),
      sessionId: c.req.header(SESSION_HEADER) ?? null,
      accept: c.req.header('accept') ?? '',
      body: await readJsonRpcBody(c),
      scope: scopeOf(c),
    },
    c.var.deps.mcp,
  );
}

async function remove(c: Context<GatewayEnv>) {
  return handleMcpDelete(
    { principal: c.var.principal, sessionId: c.req.header(SESSION_HEADER) ?? null, scope: scopeOf(c) },
    c.var.deps.mcp,
  );
}

// No server-initiated stream: the gateway sends nothing unasked (allowed by the transport).
function noStream(): never {
  throw new AppError(405, 'GET is not supported on /mcp; POST JSON-RPC requests', {
    headers: { allow: 'POST, DELETE' },
  });
}

/**
 * /mcp (every active server, names `<server>__<name>`) and /mcp/{server} (one server under
 * its own names) over streamable HTTP; the protocol itself lives in shared/src/mcp/gateway.
 */
export const mcpRoutes = new Hono<GatewayEnv>()
  .post('/', post)
  .delete('/', remove)
  .get('/', noStream)
  .post('/:server', post)
  .delete('/:server', remove)
  .get('/:server', noStream);
