import { describe, expect, it } from 'vitest';
import type { McpServerRow, McpToolRow } from '../../db/repos/mcp-repo';
import type { UserRole } from '../../db/schema/users';
import type { McpServerTarget } from '../ports';
import { speaksStateless } from '../upstream/stateless-upstream';
import { buildCatalog } from './catalog';
import { BRIDGED_METHODS, decideFromHeaders, type HeaderDecision } from './header-decision';
import { McpRpcError, RpcFault } from './jsonrpc';
import { callMethod, type MethodDeps } from './methods';
import { checkStandardHeaders } from './standard-headers';
import { SEARCH_TOOL_NAME } from './tool-search';

const server = (id: string, name: string, transportType: 'streamable_http' | 'sse' = 'sse') =>
  ({ id, name, transportType }) as McpServerRow;
const tool = (serverId: string, name: string) =>
  ({ serverId, name, description: name, inputSchema: { type: 'object' } }) as unknown as McpToolRow;

const hub = server('s1', 'hub');
// A server that speaks the stateless revision: /mcp/modern forwards requests as they are.
const modern = server('s2', 'modern', 'streamable_http');
const catalog = buildCatalog(
  [hub, modern],
  [tool('s1', 'create_issue'), tool('s1', 'delete_repo'), tool('s2', 'echo')],
  ['s1', 's2'],
  [{ name: 'support', tools: ['hub__create_issue'] }],
);

function deps(options: { search?: 'off' | 'on' } = {}): MethodDeps {
  return {
    catalog: async () => catalog,
    toolAccess: async () => ({ user: ['hub__create_issue', 'modern__echo'] }),
    toolSearch: async () => ({ mode: options.search ?? 'off', pinned: [] }),
  } as unknown as MethodDeps;
}

function decide(
  headers: Record<string, string>,
  options: { scope?: string; role?: UserRole; session?: string; version?: string | null } = {},
  methodDeps: MethodDeps = deps(),
): Promise<HeaderDecision> {
  return decideFromHeaders(
    {
      principal: { kind: 'user', userId: 'u1', role: options.role ?? 'user' },
      scope: options.scope ?? null,
      sessionId: options.session ?? null,
      protocolVersion: options.version === undefined ? '2026-07-28' : options.version,
      headers,
    },
    methodDeps,
  );
}

/** The JSON-RPC error of a refusal answered with HTTP 200, or the McpRpcError thrown. */
async function refusal(decision: Promise<HeaderDecision>) {
  try {
    const decided = await decision;
    if (decided.kind !== 'refused') return decided;
    return { status: decided.response.status, ...((await decided.response.json()) as object) };
  } catch (error) {
    if (!(error instanceof McpRpcError)) throw error;
    return { status: error.status, error: { code: error.rpcCode, message: error.message }, id: error.rpcId };
  }
}

const call = (name: string) => ({ 'mcp-method': 'tools/call', 'mcp-name': name });

describe('decisions from Mcp-Method and Mcp-Name, before the body', () => {
  it('leaves a session-era request without Mcp-Method to its body', async () => {
    expect(await decide({}, { version: null })).toEqual({ kind: 'body' });
    expect(await decide({}, { version: '2025-11-25' })).toEqual({ kind: 'body' });
    expect(await decide({ 'mcp-name': 'hub__delete_repo' }, { session: 'sess-1' })).toEqual({ kind: 'body' });
  });

  it('refuses a stateless request without Mcp-Method: 400, header mismatch', async () => {
    const missing = { status: 400, error: { code: -32020, message: 'Missing Mcp-Method header' }, id: null };
    expect(await refusal(decide({}))).toEqual(missing);
    expect(await refusal(decide({ 'mcp-name': 'hub__create_issue' }, { scope: 'hub' }))).toEqual(missing);
  });

  it('refuses a stateless tools/call, prompts/get or resources/read without Mcp-Name: 400, header mismatch', async () => {
    const missing = { status: 400, error: { code: -32020, message: 'Missing Mcp-Name header' }, id: null };
    for (const method of ['tools/call', 'prompts/get', 'resources/read'])
      expect(await refusal(decide({ 'mcp-method': method })), method).toEqual(missing);
    // Methods that name nothing need no Mcp-Name; a session's requests are read from their body.
    expect(await decide({ 'mcp-method': 'tools/list' })).toMatchObject({ kind: 'allowed' });
    expect(await decide({ 'mcp-method': 'tools/call' }, { session: 'sess-1' })).toMatchObject({
      kind: 'allowed',
    });
  });

  it('allows a tool the role may use, routed to its server', async () => {
    expect(await decide(call('hub__create_issue'))).toEqual({ kind: 'allowed', server: hub });
    expect(await decide(call('hub__delete_repo'), { role: 'admin' })).toEqual({
      kind: 'allowed',
      server: hub,
    });
    // Base64-wrapped names are read as their sender meant them.
    expect(await decide(call(`=?base64?${btoa('hub__create_issue')}?=`))).toMatchObject({ server: hub });
    expect(await decide({ 'mcp-method': 'tools/list' })).toEqual({ kind: 'allowed', server: null });
  });

  it('refuses a tool the role may not use, as the body path would (HTTP 200, -32602, id null)', async () => {
    expect(await refusal(decide(call('hub__delete_repo')))).toEqual({
      status: 200,
      jsonrpc: '2.0',
      id: null,
      error: { code: -32602, message: 'Tool not allowed: hub__delete_repo' },
    });
    // The same rules by the same names on the server's own endpoint and a virtual server.
    expect(await refusal(decide(call('delete_repo'), { scope: 'hub' }))).toMatchObject({
      error: { message: 'Tool not allowed: delete_repo' },
    });
  });

  it('refuses what the endpoint does not have: tools, prompts, resources, methods', async () => {
    expect(await refusal(decide(call('hub__nothing')))).toMatchObject({
      status: 200,
      error: { code: -32602, message: 'Unknown tool: hub__nothing' },
    });
    expect(await refusal(decide(call('hub__delete_repo'), { scope: 'support' }))).toMatchObject({
      error: { message: 'Unknown tool: hub__delete_repo' },
    });
    expect(await refusal(decide({ 'mcp-method': 'prompts/get', 'mcp-name': 'nobody__p' }))).toMatchObject({
      error: { message: 'Unknown prompt: nobody__p' },
    });
    expect(
      await refusal(
        decide({ 'mcp-method': 'resources/read', 'mcp-name': 'file:///a' }, { scope: 'support' }),
      ),
    ).toMatchObject({ error: { message: 'Unknown resource: file:///a' } });
    for (const method of ['ping', 'tasks/list']) {
      expect(await refusal(decide({ 'mcp-method': method }))).toEqual({
        status: 404,
        error: { code: -32601, message: `Method not found: ${method}` },
        id: null,
      });
    }
    expect(await refusal(decide({ 'mcp-method': 'tools/list' }, { scope: 'gone' }))).toMatchObject({
      status: 404,
      error: { message: 'No active MCP server named gone' },
    });
    expect(await decide({ 'mcp-method': 'notifications/cancelled' })).toMatchObject({ kind: 'allowed' });
  });

  it('lets the search tool through where it is on', async () => {
    expect(await refusal(decide(call(SEARCH_TOOL_NAME)))).toMatchObject({ error: { code: -32602 } });
    expect(await decide(call(SEARCH_TOOL_NAME), {}, deps({ search: 'on' }))).toEqual({
      kind: 'allowed',
      server: null,
    });
  });

  it('decides only the endpoint for a session’s request: the rest waits for its session', async () => {
    expect(await decide(call('hub__delete_repo'), { session: 's' })).toEqual({
      kind: 'allowed',
      server: null,
    });
    expect(await decide(call('hub__delete_repo'), { version: '2025-11-25' })).toMatchObject({
      kind: 'allowed',
    });
    expect(await refusal(decide(call('x'), { session: 's', scope: 'gone' }))).toMatchObject({ status: 404 });
  });

  it('on a forwarding endpoint leaves tool names and methods to the server, but not the role', async () => {
    // Not known yet whether it forwards: the body path decides.
    expect(await decide(call('not_discovered'), { scope: 'modern' })).toEqual({
      kind: 'allowed',
      server: modern,
    });
    const discover: typeof fetch = async () =>
      Response.json({ jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } });
    const target = { id: modern.id, name: 'modern', endpointUrl: 'http://modern.test/mcp', authType: 'none' };
    expect(await speaksStateless(target as McpServerTarget, discover, 1_000)).toBe(true);
    expect(await decide(call('echo'), { scope: 'modern' })).toEqual({ kind: 'allowed', server: modern });
    expect(await decide({ 'mcp-method': 'tasks/list' }, { scope: 'modern' })).toMatchObject({
      kind: 'allowed',
    });
    expect(await refusal(decide(call('not_discovered'), { scope: 'modern' }))).toMatchObject({
      error: { message: 'Tool not allowed: not_discovered' },
    });
    expect(await decide(call('not_discovered'), { scope: 'modern', role: 'admin' })).toMatchObject({
      kind: 'allowed',
    });
  });

  it('an allowed request’s body must still say what its headers said', async () => {
    const headers = call('hub__create_issue');
    expect((await decide(headers)).kind).toBe('allowed');
    const body = { method: 'tools/call', params: { name: 'hub__delete_repo' }, id: 3 };
    expect(() => checkStandardHeaders(headers, body)).toThrow(/Mcp-Name header does not match/);
  });
});

describe('the methods a bridged request may name', () => {
  it('are the ones the session methods serve (any other is method not found)', async () => {
    // Deps that fail when touched: a served method gets as far as them, or refuses its params.
    const untouchable = new Proxy({} as MethodDeps, {
      get: () => () => Promise.reject(new Error('reached')),
    });
    const outcome = async (method: string) => {
      const session = { id: 's', record: { userId: 'u', keyId: null, protocolVersion: 'x', upstream: {} } };
      const methodCall = { id: 1, method, params: {}, session, role: 'user' as const, waitUntil: () => {} };
      try {
        await callMethod(methodCall as unknown as Parameters<typeof callMethod>[0], untouchable);
        return 'served';
      } catch (error) {
        return error instanceof RpcFault && error.code === -32601 ? 'not found' : 'served';
      }
    };
    for (const method of BRIDGED_METHODS) {
      if (method === 'server/discover' || method === 'subscriptions/listen') continue;
      expect([method, await outcome(method)]).toEqual([method, 'served']);
    }
    expect(await outcome('tasks/list')).toBe('not found');
  });
});
