import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ProxyHarness } from './proxy-harness';

/**
 * Calls the fake servers' one tool, whoami, through the gateway at /mcp/<server> with the
 * official SDK client and the harness's API key, as an agent would; returns what it answered.
 */
export async function callWhoami(h: ProxyHarness, server: string): Promise<string | undefined> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://gateway.test/mcp/${server}`), {
    fetch: ((input: string | URL | Request, init?: RequestInit) =>
      h.gateway.app.request(input instanceof Request ? input : String(input), init)) as typeof fetch,
    requestInit: { headers: { authorization: `Bearer ${h.apiKey}` } },
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return (result.content as Array<{ text: string }>)[0]?.text;
  } finally {
    await client.close();
  }
}
