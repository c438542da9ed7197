import { api, unwrapPage } from '../../api/client';
import { type PageParams, useAllPages, usePagedQuery } from '../../api/paging';

export const MCP_SERVERS_QUERY = ['mcp-servers'] as const;
export const MCP_TOOLS_QUERY = ['mcp-tools'] as const;
export const MCP_VIRTUAL_SERVERS_QUERY = ['mcp-virtual-servers'] as const;

const fetchServers = (page: PageParams) =>
  unwrapPage(api.GET('/api/mcp/servers', { params: { query: page } }), page);
const fetchTools = (page: PageParams) =>
  unwrapPage(api.GET('/api/mcp/tools', { params: { query: page } }), page);

/** A page of the registered servers, for the servers screen. */
export function useMcpServerPage() {
  return usePagedQuery(MCP_SERVERS_QUERY, fetchServers);
}

/** Every registered server (admins only): the servers a filter offers. */
export function useAllMcpServers(enabled = true) {
  return useAllPages(MCP_SERVERS_QUERY, fetchServers, { enabled });
}

/** Every discovered tool: what a virtual server or a tool limit may name. */
export function useAllMcpTools() {
  return useAllPages(MCP_TOOLS_QUERY, fetchTools);
}

/** A page of the tools matching the tools screen's search and server filter. */
export function useMcpToolPage(filters: { q?: string; server?: string }) {
  return usePagedQuery([...MCP_TOOLS_QUERY, filters], (page) =>
    unwrapPage(api.GET('/api/mcp/tools', { params: { query: { ...filters, ...page } } }), page),
  );
}

/** A page of the virtual servers. */
export function useMcpVirtualServerPage() {
  return usePagedQuery(MCP_VIRTUAL_SERVERS_QUERY, (page) =>
    unwrapPage(api.GET('/api/mcp/virtual-servers', { params: { query: page } }), page),
  );
}
