import type { McpServerRow, McpToolRow, McpVirtualServerRow } from '../../db/repos/mcp-repo';

/**
 * What /mcp offers: the active servers and their discovered tools, each tool published as
 * `<server>__<tool>` so two servers may both have `search`. Ordered by server, then tool, so the
 * list is byte-for-byte stable and clients' prompt caches hold.
 */
export const NAME_SEPARATOR = '__';

export interface CatalogTool {
  /** The name clients see and call: `<server>__<tool>` on /mcp, the tool's own on /mcp/{server}. */
  publicName: string;
  /** `<server>__<tool>` on every endpoint: what security.mcp_tool_access rules name. */
  accessName: string;
  server: McpServerRow;
  tool: McpToolRow;
}

export interface McpCatalog {
  /** /mcp's catalog of every server (true), or one server's at /mcp/{server} (false). */
  aggregate: boolean;
  servers: McpServerRow[];
  /** Every registered server, active or not: a session's server missing here was deleted. */
  registeredIds: Set<string>;
  tools: CatalogTool[];
  toolByName: Map<string, CatalogTool>;
  serverByName: Map<string, McpServerRow>;
  /** The name a server's prompt is published under. */
  promptName(server: string, own: string): string;
  /** The server and own name behind a published prompt name; null when none. */
  promptOwner(name: string): { server: McpServerRow; own: string } | null;
  /** Active virtual servers by name: their `<server>__<tool>` lists (on /mcp's catalog only). */
  virtualServers: Map<string, readonly string[]>;
}

export const publicName = (server: string, name: string): string => `${server}${NAME_SEPARATOR}${name}`;

export function buildCatalog(
  servers: McpServerRow[],
  tools: McpToolRow[],
  registeredIds: string[],
  virtualServers: Pick<McpVirtualServerRow, 'name' | 'tools'>[] = [],
): McpCatalog {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const entries: CatalogTool[] = [];
  for (const tool of tools) {
    const server = byId.get(tool.serverId);
    if (server) {
      const name = publicName(server.name, tool.name);
      entries.push({ publicName: name, accessName: name, server, tool });
    }
  }
  entries.sort((a, b) => (a.publicName < b.publicName ? -1 : a.publicName > b.publicName ? 1 : 0));
  const serverByName = new Map(servers.map((s) => [s.name, s]));
  return {
    aggregate: true,
    servers,
    registeredIds: new Set(registeredIds),
    tools: entries,
    toolByName: new Map(entries.map((e) => [e.publicName, e])),
    serverByName,
    promptName: publicName,
    promptOwner(name) {
      const split = name.indexOf(NAME_SEPARATOR);
      const server = split > 0 ? serverByName.get(name.slice(0, split)) : undefined;
      return server ? { server, own: name.slice(split + NAME_SEPARATOR.length) } : null;
    },
    virtualServers: new Map(virtualServers.map((v) => [v.name, v.tools])),
  };
}

/**
 * What /mcp/{server} offers: that one active server, its tools and prompts under their own
 * names (what a client configured for that server alone expects). Null when it is not an
 * active registered server.
 */
export function scopedCatalog(catalog: McpCatalog, serverName: string): McpCatalog | null {
  const server = catalog.serverByName.get(serverName);
  if (!server) return virtualCatalog(catalog, serverName);
  const tools = catalog.tools
    .filter((t) => t.server.id === server.id)
    .map((t) => ({ ...t, publicName: t.tool.name }));
  return {
    aggregate: false,
    servers: [server],
    registeredIds: catalog.registeredIds,
    tools,
    toolByName: new Map(tools.map((t) => [t.publicName, t])),
    serverByName: new Map([[server.name, server]]),
    promptName: (_server, own) => own,
    promptOwner: (own) => ({ server, own }),
    virtualServers: new Map(),
  };
}

/**
 * What /mcp/{name} offers for an active virtual server (looked up after the registered ones):
 * exactly its listed tools that exist on active servers, under their `<server>__<tool>` names,
 * each call going to its own server as on /mcp. It has no servers of its own, so its resource,
 * template and prompt lists are empty. Null when no active virtual server has that name.
 */
export function virtualCatalog(catalog: McpCatalog, name: string): McpCatalog | null {
  const listed = catalog.virtualServers.get(name);
  if (!listed) return null;
  const wanted = new Set(listed);
  const tools = catalog.tools.filter((t) => wanted.has(t.accessName));
  return {
    aggregate: false,
    servers: [],
    registeredIds: catalog.registeredIds,
    tools,
    toolByName: new Map(tools.map((t) => [t.publicName, t])),
    serverByName: new Map(),
    promptName: publicName,
    promptOwner: () => null,
    virtualServers: new Map(),
  };
}
