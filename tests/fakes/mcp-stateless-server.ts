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

function dispatch(headers: Record<string, string | string[] | undefined>, message: Json) {
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
    default:
      return answer(
        message.id ?? null,
        { error: { code: -32601, message: `Method not found: ${String(message.method)}` } },
        404,
      );
  }
}

export async function startStatelessServer(): Promise<RunningMcpServer & { calls: Json[] }> {
  const calls: Json[] = [];
  const http = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const message = JSON.parse(text || '{}') as Json;
      calls.push(message);
      const { status, body } = dispatch(req.headers, message);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  const url = await listenLocally(http, '/mcp');
  return { url, calls, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}
