import { expect } from 'vitest';
import { type RunningMcpServer, startEverything, startGuardedServer } from '../fakes/mcp-servers';
import type { ProxyHarness } from './proxy-harness';

export const GUARDED_SECRET = 'guarded-secret';

/**
 * The two MCP servers the gateway's MCP tests route to, started and registered through the
 * console, their tools discovered: `everything` (the SDK's reference server) and `guarded`
 * (a bearer secret). Answers the running servers (to close) and the registered ids by name.
 */
export async function registerTestMcpServers(
  h: ProxyHarness,
): Promise<{ running: RunningMcpServer[]; ids: Record<string, string> }> {
  const everything = await startEverything('streamableHttp');
  const guarded = await startGuardedServer({ type: 'bearer', secret: GUARDED_SECRET });
  const ids: Record<string, string> = {};
  for (const server of [
    { name: 'everything', endpoint_url: everything.url },
    { name: 'guarded', endpoint_url: guarded.url, auth_type: 'bearer', auth_secret: GUARDED_SECRET },
  ]) {
    const created = await h.admin('POST', '/api/mcp/servers', server);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[server.name] = created.body.id;
    const found = await h.admin('POST', `/api/mcp/servers/${created.body.id}/discover`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
  }
  return { running: [everything, guarded], ids };
}
