import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { listenLocally, type RunningMcpServer } from './mcp-servers';

/**
 * An MCP server of the stateless revision (2026-07-28) only, as the conformance suite's
 * reference server speaks it: server/discover, tools/list and tools/call answered per request
 * from `_meta`, with no initialize and no session; `greet` asks the client for a name with an
 * input-required result and an HMAC-signed requestState, and checks both on the retry.
 * Session-era traffic (initialize) is refused, so a gateway must forward, not bridge.
 */
const VERSION = '2026-07-28';
const SECRET = 'fake-stateless-state-key';
export const STATELESS_TOOLS = ['echo', 'greet', 'drop_table'];

type Json = Record<string, unknown>;
const sign = (state: string) => `${state}.${createHmac('sha256', SECRET).update(state).digest('hex')}`;
const verified = (signed: unknown) =>
  typeof signed === 'string' &&
  signed.includes('.') &&
  sign(signed.slice(0, signed.lastIndexOf('.'))) === signed;

function answer(id: unknown, body: Json, status = 200) {
  return { status, body: { jsonrpc: '2.0', id, ...body } };
}

function callTool(id: unknown, params: Json) {
  const args = (params.arguments ?? {}) as Json;
  const done = (text: string) =>
    answer(id, { result: { resultType: 'complete', content: [{ type: 'text', text }] } });
  if (params.name === 'echo' || params.name === 'drop_table') return done(`echo: ${String(args.text ?? '')}`);
  if (params.name !== 'greet')
    return answer(id, { error: { code: -32602, message: `Unknown tool ${String(params.name)}` } });
  const responses = params.inputResponses as Json | undefined;
  if (!responses) {
    return answer(id, {
      result: {
        resultType: 'input_required',
        inputRequests: {
          who: {
            method: 'elicitation/create',
            params: {
              message: 'Your name?',
              requestedSchema: {
                type: 'object',
                properties: { name: { type: 'string' } },
                required: ['name'],
              },
            },
          },
        },
        requestState: sign(`greet:${Date.now()}`),
      },
    });
  }
  if (!verified(params.requestState))
    return answer(id, { error: { code: -32602, message: 'Invalid requestState' } });
  const who = responses.who as { content?: { name?: unknown } } | undefined;
  return done(`hello ${String(who?.content?.name ?? 'nobody')}`);
}

/**
 * The lists a caching gateway may keep: prompts for everyone (public) and resources for the caller
 * (private), both fresh for `listTtlMs`; templates never (ttlMs 0).
 */
function listAnswer(method: unknown, listTtlMs: number): Json | null {
  const complete = (body: Json, ttlMs: number, cacheScope: 'public' | 'private') => ({
    result: { resultType: 'complete', ...body, ttlMs, cacheScope },
  });
  if (method === 'prompts/list') return complete({ prompts: [{ name: 'greeting' }] }, listTtlMs, 'public');
  if (method === 'resources/list')
    return complete({ resources: [{ uri: 'memo://mine', name: 'mine' }] }, listTtlMs, 'private');
  if (method === 'resources/templates/list')
    return complete({ resourceTemplates: [{ uriTemplate: 'memo://{id}', name: 'memo' }] }, 0, 'public');
  return null;
}

function dispatch(headers: Record<string, string | string[] | undefined>, message: Json, listTtlMs: number) {
  const params = (message.params ?? {}) as Json;
  const meta = (params._meta ?? {}) as Json;
  if (
    headers['mcp-protocol-version'] !== VERSION ||
    meta['io.modelcontextprotocol/protocolVersion'] !== VERSION
  ) {
    return answer(
      message.id ?? null,
      { error: { code: -32022, message: 'Unsupported protocol version' } },
      400,
    );
  }
  switch (message.method) {
    case 'server/discover':
      return answer(message.id, {
        result: {
          resultType: 'complete',
          supportedVersions: [VERSION],
          capabilities: { tools: {} },
          ttlMs: 0,
          cacheScope: 'public',
        },
      });
    case 'tools/list':
      return answer(message.id, {
        result: {
          resultType: 'complete',
          tools: STATELESS_TOOLS.map((name) => ({ name, inputSchema: { type: 'object' } })),
          ttlMs: 60_000,
          cacheScope: 'public',
        },
      });
    case 'tools/call':
      return callTool(message.id, params);
    default: {
      const listed = listAnswer(message.method, listTtlMs);
      if (listed) return answer(message.id, listed);
      return answer(
        message.id ?? null,
        { error: { code: -32601, message: `Method not found: ${String(message.method)}` } },
        404,
      );
    }
  }
}

/** `listTtlMs`: how long its prompt and resource lists stay fresh (60 s unless said). */
export async function startStatelessServer(
  options: { listTtlMs?: number } = {},
): Promise<RunningMcpServer & { calls: Json[] }> {
  const calls: Json[] = [];
  const http = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const message = JSON.parse(text || '{}') as Json;
      calls.push(message);
      const { status, body } = dispatch(req.headers, message, options.listTtlMs ?? 60_000);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  const url = await listenLocally(http, '/mcp');
  return { url, calls, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}
