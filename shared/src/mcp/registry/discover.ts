import { writeAudit } from '../../db/repos/audit-repo';
import { replaceMcpTools } from '../../db/repos/mcp-repo';
import { AppError } from '../../http/app-error';
import { commitThenBump } from '../../runtime/cache-versions';
import type { AuditActor } from '../../users/ports';
import {
  type ClientChannel,
  type McpToolDescriptor,
  type UpstreamMcpConnector,
  UpstreamMcpUnavailable,
} from '../ports';

const RELAYED_CAPABILITIES: ClientChannel['capabilities'] = { sampling: {}, elicitation: {}, roots: {} };

import { MachineSignInFailed } from '../oauth/machine-token';
import type { McpServerTarget } from '../ports';
import { type McpRegistryDeps, requireMcpServer } from './registry';
import { toMcpServerTarget } from './target';
import { invalidToolHeaders } from './tool-headers';

export interface DiscoverDeps extends McpRegistryDeps {
  connector: UpstreamMcpConnector;
  timeoutMs: number;
  /**
   * The server as `userId` reaches it: an auth_type oauth server is listed with the acting
   * admin's own connection (mcp/oauth/user-target.ts), a machine auth type's with the token
   * Sluice gets for itself (mcp/oauth/machine-target.ts).
   */
  forUser(target: McpServerTarget, userId: string): Promise<McpServerTarget>;
}

export interface DiscoveryView {
  server_id: string;
  tools_discovered: number;
  tools: Array<{ name: string; description: string; input_schema: Record<string, unknown> }>;
}

async function fetchTools(deps: DiscoverDeps, id: string, userId: string): Promise<McpToolDescriptor[]> {
  const registered = await toMcpServerTarget(await requireMcpServer(deps.db, id), deps.secrets);
  const target = await deps.forUser(registered, userId).catch((error: unknown) => {
    // Sluice's own sign-in failed: what the server's authorization server answered.
    if (error instanceof MachineSignInFailed) throw new AppError(502, error.message);
    throw new AppError(409, `${error instanceof Error ? error.message : String(error)}, then discover again`);
  });
  let session: Awaited<ReturnType<UpstreamMcpConnector['connect']>> | undefined;
  try {
    // As a client that answers everything the gateway relays: servers that offer some tools only
    // to such clients (sampling, elicitation) list them too.
    session = await deps.connector.connect(target, {
      timeoutMs: deps.timeoutMs,
      capabilities: RELAYED_CAPABILITIES,
    });
    return await session.listTools();
  } catch (error) {
    if (error instanceof UpstreamMcpUnavailable) throw new AppError(502, error.message);
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(502, `MCP server ${target.name} failed to list its tools: ${reason}`);
  } finally {
    await session?.close().catch(() => {});
  }
}

/**
 * POST /api/mcp/servers/{id}/discover: connect with the server's transport and credential,
 * initialize, tools/list (every page), then replace the stored tools in one transaction. When the
 * server cannot be reached nothing is stored (502); the previous tools stay.
 */
export async function discoverMcpTools(
  deps: DiscoverDeps,
  id: string,
  actor: AuditActor,
): Promise<DiscoveryView> {
  const tools = await fetchTools(deps, id, actor.userId ?? '');
  const valid = tools.filter((t) => invalidToolHeaders(t.inputSchema ?? {}) === null);
  const unique = [...new Map(valid.map((t) => [t.name, t])).values()];
  return commitThenBump(deps, ['mcp'], async (tx) => {
    const server = await requireMcpServer(tx, id);
    await replaceMcpTools(
      tx,
      id,
      unique.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema })),
    );
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_server.discover',
      resourceType: 'mcp_server',
      resourceId: id,
      details: { name: server.name, tools_discovered: unique.length },
    });
    return {
      server_id: id,
      tools_discovered: unique.length,
      tools: unique.map((t) => ({
        name: t.name,
        description: t.description ?? '',
        input_schema: t.inputSchema,
      })),
    };
  });
}
