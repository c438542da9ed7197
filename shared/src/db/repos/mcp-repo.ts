import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import { containsPattern } from '../contains';
import { fetchPage, type PageQuery } from '../paging';
import { mcpServers, mcpTools, mcpVirtualServers } from '../schema';
import type { QueryDb } from '../types';

export type McpServerRow = typeof mcpServers.$inferSelect;
export type McpServerInsert = typeof mcpServers.$inferInsert;
export type McpToolRow = typeof mcpTools.$inferSelect;
export type McpVirtualServerRow = typeof mcpVirtualServers.$inferSelect;
export type McpVirtualServerInsert = typeof mcpVirtualServers.$inferInsert;

/** A page of servers by name (unique), each with its number of stored tools. */
export async function listMcpServersWithToolCounts(
  db: QueryDb,
  page: PageQuery,
): Promise<{ rows: Array<McpServerRow & { toolCount: number }>; total: number }> {
  const { rows, total } = await fetchPage(
    page,
    db
      .select({ server: mcpServers, toolCount: count(mcpTools.id) })
      .from(mcpServers)
      .leftJoin(mcpTools, eq(mcpTools.serverId, mcpServers.id))
      .groupBy(mcpServers.id)
      .orderBy(asc(mcpServers.name)),
    db.select({ total: count() }).from(mcpServers),
  );
  return { rows: rows.map((r) => ({ ...r.server, toolCount: Number(r.toolCount) })), total };
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
    | 'oauthPrivateKeyEncrypted'
    | 'idpIssuer'
    | 'idpClientId'
    | 'idpClientSecretEncrypted'
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

export interface McpToolFilter {
  /** Case-insensitive substring of the tool's name or description. */
  q?: string;
  /** The server's name, exactly. */
  server?: string;
}

/** A page of tools with their server's name, by server then tool name, ties by id. */
export async function listMcpToolsWithServer(
  db: QueryDb,
  filter: McpToolFilter,
  page: PageQuery,
): Promise<{ rows: Array<McpToolRow & { serverName: string }>; total: number }> {
  const pattern = filter.q === undefined ? undefined : containsPattern(filter.q);
  const where = and(
    filter.server === undefined ? undefined : eq(mcpServers.name, filter.server),
    pattern === undefined
      ? undefined
      : or(ilike(mcpTools.name, pattern), ilike(mcpTools.description, pattern)),
  );
  const { rows, total } = await fetchPage(
    page,
    db
      .select({ tool: mcpTools, serverName: mcpServers.name })
      .from(mcpTools)
      .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
      .where(where)
      .orderBy(asc(mcpServers.name), asc(mcpTools.name), asc(mcpTools.id)),
    db
      .select({ total: count() })
      .from(mcpTools)
      .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
      .where(where),
  );
  return { rows: rows.map((r) => ({ ...r.tool, serverName: r.serverName })), total };
}

/** Active servers and their stored tools, and the ids of all registered servers, for the gateway. */
export async function loadActiveMcpCatalogRows(db: QueryDb): Promise<{
  servers: McpServerRow[];
  tools: McpToolRow[];
  registeredIds: string[];
  virtualServers: McpVirtualServerRow[];
}> {
  const all = await db.select().from(mcpServers).orderBy(asc(mcpServers.name));
  const servers = all.filter((s) => s.isActive);
  const tools = await db
    .select({ tool: mcpTools })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .where(eq(mcpServers.isActive, true))
    .orderBy(asc(mcpServers.name), asc(mcpTools.name));
  const virtualServers = await db
    .select()
    .from(mcpVirtualServers)
    .where(eq(mcpVirtualServers.isActive, true))
    .orderBy(asc(mcpVirtualServers.name));
  return { servers, tools: tools.map((r) => r.tool), registeredIds: all.map((s) => s.id), virtualServers };
}

/**
 * Registered and virtual servers share one namespace (/mcp/{name}): a transaction that creates
 * either takes this lock first, then checks the other table, so two racing creates of the same
 * name in the two tables cannot both win.
 */
export async function lockMcpServerNames(db: QueryDb): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sluice:mcp-server-names'))`);
}

export async function mcpServerNameTaken(db: QueryDb, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(eq(mcpServers.name, name))
    .limit(1);
  return row !== undefined;
}

export async function mcpVirtualServerNameTaken(db: QueryDb, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: mcpVirtualServers.id })
    .from(mcpVirtualServers)
    .where(eq(mcpVirtualServers.name, name))
    .limit(1);
  return row !== undefined;
}

/** A page of virtual servers by name (unique). */
export function listMcpVirtualServerPage(
  db: QueryDb,
  page: PageQuery,
): Promise<{ rows: McpVirtualServerRow[]; total: number }> {
  return fetchPage(
    page,
    db.select().from(mcpVirtualServers).orderBy(asc(mcpVirtualServers.name)),
    db.select({ total: count() }).from(mcpVirtualServers),
  );
}

export async function findMcpVirtualServerById(
  db: QueryDb,
  id: string,
): Promise<McpVirtualServerRow | undefined> {
  const [row] = await db.select().from(mcpVirtualServers).where(eq(mcpVirtualServers.id, id)).limit(1);
  return row;
}

/** Undefined when the name is taken by another virtual server. */
export async function insertMcpVirtualServerIfNameFree(
  db: QueryDb,
  input: McpVirtualServerInsert,
): Promise<McpVirtualServerRow | undefined> {
  const [row] = await db.insert(mcpVirtualServers).values(input).onConflictDoNothing().returning();
  return row;
}

export type McpVirtualServerPatch = Partial<
  Pick<McpVirtualServerInsert, 'description' | 'tools' | 'isActive'>
>;

export async function updateMcpVirtualServerRow(
  db: QueryDb,
  id: string,
  patch: McpVirtualServerPatch,
): Promise<McpVirtualServerRow | undefined> {
  const [row] = await db
    .update(mcpVirtualServers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(mcpVirtualServers.id, id))
    .returning();
  return row;
}

export async function deleteMcpVirtualServerRow(
  db: QueryDb,
  id: string,
): Promise<McpVirtualServerRow | undefined> {
  const [row] = await db.delete(mcpVirtualServers).where(eq(mcpVirtualServers.id, id)).returning();
  return row;
}

/** The active servers of auth_type oauth_token_exchange (a sign-in connects the ones of its provider). */
export function listTokenExchangeServers(db: QueryDb): Promise<McpServerRow[]> {
  return db
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.authType, 'oauth_token_exchange'), eq(mcpServers.isActive, true)))
    .orderBy(asc(mcpServers.name));
}
