import { type Page, type PageQuery, pageOf } from '../../db/paging';
import { writeAudit } from '../../db/repos/audit-repo';
import {
  deleteMcpVirtualServerRow,
  findMcpVirtualServerById,
  insertMcpVirtualServerIfNameFree,
  listMcpVirtualServerPage,
  lockMcpServerNames,
  type McpVirtualServerPatch,
  type McpVirtualServerRow,
  mcpServerNameTaken,
  updateMcpVirtualServerRow,
} from '../../db/repos/mcp-repo';
import type { Db } from '../../db/types';
import { conflict, notFound } from '../../http/app-error';
import { type ChangeDeps, commitThenBump } from '../../runtime/cache-versions';
import type { AuditActor } from '../../users/ports';
import type { CreateMcpVirtualServerInput, UpdateMcpVirtualServerInput } from './schemas';

/**
 * Virtual servers: a named, curated set of `<server>__<tool>` tools served at /mcp/{name}
 * (gateway/catalog.ts virtualCatalog). Their names share one namespace with registered servers.
 */
export interface McpVirtualServerView {
  id: string;
  name: string;
  description: string | null;
  tools: string[];
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export function toMcpVirtualServerView(row: McpVirtualServerRow): McpVirtualServerView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tools: row.tools,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A page of virtual servers by name. */
export async function listMcpVirtualServers(db: Db, page: PageQuery): Promise<Page<McpVirtualServerView>> {
  const { rows, total } = await listMcpVirtualServerPage(db, page);
  return pageOf(page, total, rows.map(toMcpVirtualServerView));
}

export async function getMcpVirtualServer(db: Db, id: string): Promise<McpVirtualServerView> {
  const row = await findMcpVirtualServerById(db, id);
  if (!row) throw notFound('MCP virtual server not found');
  return toMcpVirtualServerView(row);
}

export async function createMcpVirtualServer(
  deps: ChangeDeps,
  input: CreateMcpVirtualServerInput,
  actor: AuditActor,
): Promise<McpVirtualServerView> {
  return commitThenBump(deps, ['mcp'], async (tx) => {
    await lockMcpServerNames(tx);
    if (await mcpServerNameTaken(tx, input.name)) throw conflict('An MCP server has that name');
    const row = await insertMcpVirtualServerIfNameFree(tx, {
      name: input.name,
      description: input.description,
      tools: input.tools,
      isActive: input.is_active,
    });
    if (!row) throw conflict('MCP virtual server name already exists');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_virtual_server.create',
      resourceType: 'mcp_virtual_server',
      resourceId: row.id,
      details: { name: row.name, tools: row.tools.length, is_active: row.isActive },
    });
    return toMcpVirtualServerView(row);
  });
}

export async function updateMcpVirtualServer(
  deps: ChangeDeps,
  id: string,
  input: UpdateMcpVirtualServerInput,
  actor: AuditActor,
): Promise<McpVirtualServerView> {
  const patch: McpVirtualServerPatch = {};
  if (input.description !== undefined) patch.description = input.description;
  if (input.tools !== undefined) patch.tools = input.tools;
  if (input.is_active !== undefined) patch.isActive = input.is_active;
  return commitThenBump(deps, ['mcp'], async (tx) => {
    const row = await updateMcpVirtualServerRow(tx, id, patch);
    if (!row) throw notFound('MCP virtual server not found');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_virtual_server.update',
      resourceType: 'mcp_virtual_server',
      resourceId: row.id,
      details: { name: row.name, changes: Object.keys(input).sort() },
    });
    return toMcpVirtualServerView(row);
  });
}

export async function deleteMcpVirtualServer(deps: ChangeDeps, id: string, actor: AuditActor): Promise<void> {
  await commitThenBump(deps, ['mcp'], async (tx) => {
    const row = await deleteMcpVirtualServerRow(tx, id);
    if (!row) throw notFound('MCP virtual server not found');
    await writeAudit(tx, {
      ...actor,
      action: 'mcp_virtual_server.delete',
      resourceType: 'mcp_virtual_server',
      resourceId: row.id,
      details: { name: row.name },
    });
  });
}
