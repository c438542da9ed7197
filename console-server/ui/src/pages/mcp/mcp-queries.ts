import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export const MCP_SERVERS_QUERY = ['mcp-servers'] as const;
export const MCP_TOOLS_QUERY = ['mcp-tools'] as const;

export function useMcpServers() {
  return useQuery({ queryKey: MCP_SERVERS_QUERY, queryFn: () => unwrap(api.GET('/api/mcp/servers')) });
}

export function useMcpTools() {
  return useQuery({ queryKey: MCP_TOOLS_QUERY, queryFn: () => unwrap(api.GET('/api/mcp/tools')) });
}

export const MCP_VIRTUAL_SERVERS_QUERY = ['mcp-virtual-servers'] as const;

export function useMcpVirtualServers() {
  return useQuery({
    queryKey: MCP_VIRTUAL_SERVERS_QUERY,
    queryFn: () => unwrap(api.GET('/api/mcp/virtual-servers')),
  });
}
