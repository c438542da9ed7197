import { asc, count, eq } from 'drizzle-orm';
import { mcpServers, mcpTools } from '../schema';
import type { QueryDb } from '../types';

export type McpServerRow = typeof mcpServers.$inferSelect;
export type McpServerInsert = typeof mcpServers.$inferInsert;
export type McpToolRow = typeof mcpTools.$inferSelect;

export async function listMcpServersWithToolCounts(
  db: QueryDb,
): Promise<Array<McpServerRow & { toolCount: number }>> {
  const rows = await db
    .select({ server: mcpServers, toolCount: count(mcpTools.id) })
    .from(mcpServers)
    .leftJoin(mcpTools, eq(mcpTools.serverId, mcpServers.id))
    .groupBy(mcpServers.id)
    .orderBy(asc(mcpServers.name));
  return rows.map((r) => ({ ...r.server, toolCount: Number(r.toolCount) }));
}

export async function findMcpServerById(db: QueryDb, id: string): Promise<McpServerRow | undefined> {
  const [row] = await db.select().from(mcpServers).where(eq(mcpServers.id, id)).limit(1);
  return row;
}

export async function countMcpTools(db: QueryDb, serverId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mcpTools).where(eq(mcpTools.serverId, serverId));
  return Number(row?.n ?? 0);
}

/** Undefined when the name is taken (the unique index decides, so racing creates cannot both win). */
export async function insertMcpServerIfNameFree(
  db: QueryDb,
  input: McpServerInsert,
): Promise<McpServerRow | undefined> {
  const [row] = await db.insert(mcpServers).values(input).onConflictDoNothing().returning();
  return row;
}

export type McpServerPatch = Partial<
  Pick<
    McpServerInsert,
    | 'description'
    | 'endpointUrl'
    | 'transportType'
    | 'authType'
    | 'authName'
    | 'authSecretEncrypted'
    | 'oauthClientId'
    | 'oauthClientSecretEncrypted'
    | 'isActive'
  >
>;

export async function updateMcpServerRow(
  db: QueryDb,
  id: string,
  patch: McpServerPatch,
): Promise<McpServerRow | undefined> {
  const [row] = await db
    .update(mcpServers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(mcpServers.id, id))
    .returning();
  return row;
}

export async function deleteMcpServerRow(db: QueryDb, id: string): Promise<McpServerRow | undefined> {
  const [row] = await db.delete(mcpServers).where(eq(mcpServers.id, id)).returning();
  return row;
}

/** Replaces a server's tools with what discovery found (one transaction, caller's). */
export async function replaceMcpTools(
  db: QueryDb,
  serverId: string,
  tools: Array<{ name: string; description: string | null; inputSchema: Record<string, unknown> }>,
): Promise<McpToolRow[]> {
  await db.delete(mcpTools).where(eq(mcpTools.serverId, serverId));
  if (tools.length === 0) return [];
  return db
    .insert(mcpTools)
    .values(tools.map((t) => ({ ...t, serverId })))
    .returning();
}

/** Every tool with its server's name, by server then tool name. */
export async function listMcpToolsWithServer(
  db: QueryDb,
): Promise<Array<McpToolRow & { serverName: string }>> {
  const rows = await db
    .select({ tool: mcpTools, serverName: mcpServers.name })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .orderBy(asc(mcpServers.name), asc(mcpTools.name));
  return rows.map((r) => ({ ...r.tool, serverName: r.serverName }));
}

/** Active servers and their stored tools, and the ids of all registered servers, for the gateway. */
export async function loadActiveMcpCatalogRows(
  db: QueryDb,
): Promise<{ servers: McpServerRow[]; tools: McpToolRow[]; registeredIds: string[] }> {
  const all = await db.select().from(mcpServers).orderBy(asc(mcpServers.name));
  const servers = all.filter((s) => s.isActive);
  const tools = await db
    .select({ tool: mcpTools })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .where(eq(mcpServers.isActive, true))
    .orderBy(asc(mcpServers.name), asc(mcpTools.name));
  return { servers, tools: tools.map((r) => r.tool), registeredIds: all.map((s) => s.id) };
}
