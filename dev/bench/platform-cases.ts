/**
 * The gateway and MCP cases of the platform bench. A cold key is one this gateway process has
 * never seen (each call takes the next seeded key, of another user, none used before since the
 * stack started on a flushed Redis); a warm key is the same key every time. Likewise a model
 * never asked before against the one the warm cases use. MCP goes through the official SDK
 * client, one session, with the admin's key; its bytes are those of the answers' bodies.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, httpAnswer } from './http-answer';
import { benchToolName } from './platform-mcp-server';
import { firstOtherKey, keySecret, type PlatformSizes, seededModelName } from './platform-seed';
import { MCP_SERVER_NAME } from './platform-setup';
import type { TimedCase } from './timed-cases';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Indices 1, 2, … of `size` slots, spread by a stride coprime with it: every index differs from
 * the ones before (and from slot 0, kept for the warm case) until `size - 1` were taken.
 */
export function spreadIndices(size: number, stride = 1009): () => number {
  let step = stride;
  while (gcd(step, size) !== 1) step++;
  let taken = 0;
  return () => {
    taken++;
    if (taken >= size) throw new Error(`only ${size - 1} unused slots to take`);
    return (taken * step) % size;
  };
}

const chatAnswer = (gatewayUrl: string, key: string, model: string) =>
  httpAnswer(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hi' }] }),
  });

export interface GatewayCaseOptions {
  gatewayUrl: string;
  salt: string;
  sizes: PlatformSizes;
}

export function gatewayCases({ gatewayUrl, salt, sizes }: GatewayCaseOptions): TimedCase[] {
  const first = firstOtherKey(sizes);
  const otherKeys = sizes.keys - first;
  const nextKey = spreadIndices(otherKeys);
  const nextModel = spreadIndices(sizes.models);
  const warmKey = keySecret(salt, first);
  const warmModel = seededModelName(0);
  const chat = (key: string, model: string) => chatAnswer(gatewayUrl, key, model);
  const models = `${sizes.models.toLocaleString('en-US')} models`;
  return [
    {
      group: 'gateway',
      name: 'chat, cold key',
      run: () => chat(keySecret(salt, first + nextKey()), warmModel),
    },
    { group: 'gateway', name: `chat, warm key (${models})`, run: () => chat(warmKey, warmModel) },
    {
      group: 'gateway',
      name: 'chat, warm key, model not asked before',
      run: () => chat(warmKey, seededModelName(nextModel())),
    },
    {
      group: 'gateway',
      name: `GET /v1/models (${models})`,
      run: () => httpAnswer(`${gatewayUrl}/v1/models`, { headers: bearer(warmKey) }),
    },
  ];
}

/** The warm chat and /v1/models on another stack with only a few models: the comparison rows. */
export function fewModelCases(gatewayUrl: string, key: string, model: string, label: string): TimedCase[] {
  return [
    { group: 'gateway', name: `chat, warm key (${label})`, run: () => chatAnswer(gatewayUrl, key, model) },
    {
      group: 'gateway',
      name: `GET /v1/models (${label})`,
      run: () => httpAnswer(`${gatewayUrl}/v1/models`, { headers: bearer(key) }),
    },
  ];
}

export interface McpCases {
  cases: TimedCase[];
  close(): Promise<void>;
}

/** A session on /mcp through the SDK client; tools/list and a tools/call on it. */
export async function mcpCases(gatewayUrl: string, apiKey: string, tools: number): Promise<McpCases> {
  let bytes = 0;
  let listed = 0;
  const counting = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(counter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }) as typeof fetch;
  const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp`), {
    fetch: counting,
    requestInit: { headers: bearer(apiKey) },
  });
  const client = new Client({ name: 'sluice-bench', version: '1.0.0' });
  await client.connect(transport);
  const measured = async (call: () => Promise<unknown>) => {
    bytes = 0;
    await call();
    return { status: 200, bytes };
  };
  const tool = `${MCP_SERVER_NAME}__${benchToolName(tools - 1)}`;
  return {
    cases: [
      {
        group: 'mcp',
        name: `tools/list (${tools.toLocaleString('en-US')} tools)`,
        run: async () => {
          const answer = await measured(async () => {
            listed = (await client.listTools()).tools.length;
            if (listed < tools) throw new Error(`tools/list gave ${listed} tools`);
          });
          return { ...answer, items: () => ({ count: listed, total: null }) };
        },
      },
      {
        group: 'mcp',
        name: 'tools/call',
        run: () =>
          measured(async () => {
            const result = await client.callTool({ name: tool, arguments: { id: '42' } });
            if (result.isError)
              throw new Error(`tools/call: ${JSON.stringify(result.content).slice(0, 100)}`);
          }),
      },
    ],
    close: () => client.close(),
  };
}
