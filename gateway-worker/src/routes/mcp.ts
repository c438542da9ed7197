import {
  AppError,
  describeJsonInputProblem,
  discardUnreadBody,
  findJsonInputProblem,
} from '@sluice/shared/http';
import {
  decideFromHeaders,
  forOneRequest,
  handleMcpDelete,
  handleMcpGet,
  handleMcpPost,
  McpRpcError,
  mcpNameOf,
  RPC,
  SESSION_HEADER,
} from '@sluice/shared/mcp/gateway';
import { createCallDeadline } from '@sluice/shared/util';
import { type Context, Hono } from 'hono';
import { backgroundFor } from '../background';
import type { GatewayEnv } from '../types';
import { startMcpSpan } from './mcp-span';
import { readJsonWithin } from './read-body';

async function readJsonRpcBody(c: Context<GatewayEnv>): Promise<unknown> {
  const body = await readJsonWithin(
    c,
    createCallDeadline(),
    () => new McpRpcError(400, RPC.parseError, 'Parse error: the body must be JSON', null),
  );
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

/** The client's MCP-* headers but the session's: what a stateless upstream is sent as they came. */
function mcpHeaders(headers: Headers): Record<string, string> {
  const picked: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith('mcp-') && name !== SESSION_HEADER) picked[name] = value;
  });
  return picked;
}

/** The request as its standard headers describe it, for its span when its body is never read. */
function messageOfHeaders(headers: Record<string, string>): unknown {
  const named = headers['mcp-method'] === 'resources/read' ? 'uri' : 'name';
  const name = mcpNameOf(headers);
  return { method: headers['mcp-method'], params: name === undefined ? {} : { [named]: name } };
}

/** null on /mcp; the server's name on /mcp/{server}. */
const scopeOf = (c: Context<GatewayEnv>): string | null => c.req.param('server') ?? null;

/**
 * POST /mcp: what the Mcp-Method and Mcp-Name headers settle is settled before the body is read
 * (header-decision.ts): a refusal leaves the body unparsed (read and dropped, as every refusal
 * before the body is), and a request routed to one server starts resolving that server's
 * credential while its body arrives.
 */
async function post(c: Context<GatewayEnv>) {
  const principal = c.get('principal');
  const headers = mcpHeaders(c.req.raw.headers);
  const request = {
    principal,
    scope: scopeOf(c),
    sessionId: c.req.header(SESSION_HEADER) ?? null,
    protocolVersion: c.req.header('mcp-protocol-version') ?? null,
  };
  const { deps, prefetch } = forOneRequest(c.get('deps').mcp);
  const early = await decideFromHeaders({ ...request, headers }, deps);
  if (early.kind === 'refused') {
    c.set('span', startMcpSpan(c, messageOfHeaders(headers)));
    await discardUnreadBody(c.req.raw);
    return early.response;
  }
  if (early.kind === 'allowed' && early.server) prefetch(early.server, principal.userId);
  const body = await readJsonRpcBody(c);
  const span = startMcpSpan(c, body);
  c.set('span', span);
  return handleMcpPost(
    {
      ...request,
      span,
      waitUntil: backgroundFor(c),
      accept: c.req.header('accept') ?? '',
      body,
      signal: c.req.raw.signal,
      forwardHeaders: headers,
    },
    deps,
  );
}

async function remove(c: Context<GatewayEnv>) {
  return handleMcpDelete(
    { principal: c.get('principal'), sessionId: c.req.header(SESSION_HEADER) ?? null, scope: scopeOf(c) },
    c.get('deps').mcp,
  );
}

/** The session's stream of messages that answer no request (resource updates): event streams only. */
async function listen(c: Context<GatewayEnv>) {
  if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
    throw new AppError(406, 'GET /mcp opens an event stream: send Accept: text/event-stream');
  }
  return handleMcpGet(
    {
      principal: c.get('principal'),
      sessionId: c.req.header(SESSION_HEADER) ?? null,
      scope: scopeOf(c),
      signal: c.req.raw.signal,
      lastEventId: c.req.header('last-event-id') ?? null,
    },
    c.get('deps').mcp,
  );
}

/**
 * /mcp (every active server, names `<server>__<name>`) and /mcp/{server} (one server under
 * its own names) over streamable HTTP; the protocol itself lives in shared/src/mcp/gateway.
 */
export const mcpRoutes = new Hono<GatewayEnv>()
  .post('/', post)
  .delete('/', remove)
  .get('/', listen)
  .post('/:server', post)
  .delete('/:server', remove)
  .get('/:server', listen);
