import { loadActiveMcpCatalogRows, type McpServerRow, type McpToolRow } from '../../db/repos/mcp-repo';
import type { Db } from '../../db/types';
import type { RedisPort } from '../../stores/redis-port';
import { createVersionedCache } from '../../stores/versioned-cache';

/**
 * What /mcp offers: the active servers and their discovered tools, each tool published as
 * `<server>__<tool>` so two servers may both have `search`. Ordered by server, then tool, so the
 * list is byte-for-byte stable and clients' prompt caches hold.
 */
export const MCP_VERSION_KEY = 'sluice:mcp:version';
export const NAME_SEPARATOR = '__';

export interface CatalogTool {
  publicName: string;
  server: McpServerRow;
  tool: McpToolRow;
}

export interface McpCatalog {
  servers: McpServerRow[];
  /** Every registered server, active or not: a session's server missing here was deleted. */
  registeredIds: Set<string>;
  tools: CatalogTool[];
  toolByName: Map<string, CatalogTool>;
  serverByName: Map<string, McpServerRow>;
}

export const publicName = (server: string, name: string): string => `${server}${NAME_SEPARATOR}${name}`;

export function buildCatalog(
  servers: McpServerRow[],
  tools: McpToolRow[],
  registeredIds: string[],
): McpCatalog {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const entries: CatalogTool[] = [];
  for (const tool of tools) {
    const server = byId.get(tool.serverId);
    if (server) entries.push({ publicName: publicName(server.name, tool.name), server, tool });
  }
  entries.sort((a, b) => (a.publicName < b.publicName ? -1 : a.publicName > b.publicName ? 1 : 0));
  return {
    servers,
    registeredIds: new Set(registeredIds),
    tools: entries,
    toolByName: new Map(entries.map((e) => [e.publicName, e])),
    serverByName: new Map(servers.map((s) => [s.name, s])),
  };
}

/** Per isolate; the console bumps MCP_VERSION_KEY after every registry change. */
export function createCatalogCache(db: Db, redis: Pick<RedisPort, 'get'> | null): () => Promise<McpCatalog> {
  const cached = createVersionedCache<McpCatalog>({
    redis,
    versionKey: MCP_VERSION_KEY,
    load: async () => {
      const rows = await loadActiveMcpCatalogRows(db);
      return buildCatalog(rows.servers, rows.tools, rows.registeredIds);
    },
  });
  return () => cached('catalog');
}
