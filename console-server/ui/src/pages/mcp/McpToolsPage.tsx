import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/AuthProvider';
import { isAdmin } from '../../auth/session';
import { type Column, DataTable } from '../../components/DataTable';
import { DetailDrawer } from '../../components/DetailDrawer';
import { PageHeader } from '../../components/PageHeader';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { useAllMcpServers, useMcpToolPage } from './mcp-queries';

type Tool = Schemas['McpTool'];

const columns: Column<Tool>[] = [
  { key: 'server', header: 'Server', render: (t) => t.server_name },
  { key: 'name', header: 'Tool', render: (t) => t.name },
  { key: 'gateway', header: 'Name on /mcp', render: (t) => `${t.server_name}__${t.name}` },
  { key: 'description', header: 'Description', render: (t) => t.description },
];

/**
 * The discovered tools, a page at a time, searched and filtered by the API; a click shows a
 * tool's input schema. Open to every signed-in user.
 */
export function McpToolsPage() {
  const admin = isAdmin(useUser());
  const [server, setServer] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const tools = useMcpToolPage({ ...(q ? { q } : {}), ...(server ? { server } : {}) });
  // The server list is admins' only; anyone else picks among the servers of the tools shown.
  const servers = useAllMcpServers(admin);
  const [selected, setSelected] = useState<Tool | null>(null);
  const serverNames = admin
    ? (servers.data ?? []).map((s) => s.name)
    : [...new Set([...(server ? [server] : []), ...(tools.rows ?? []).map((t) => t.server_name)])];
  return (
    <>
      <PageHeader
        title="MCP tools"
        description="Tools of the registered MCP servers, callable through the gateway's /mcp endpoint."
      />
      <QueryError error={tools.query.error} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} mb="md">
        <TextInput
          label="Search"
          placeholder="Name or description"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label="Server"
          data={serverNames}
          clearable
          placeholder="All servers"
          value={server}
          onChange={setServer}
        />
      </SimpleGrid>
      <DataTable
        columns={columns}
        rows={tools.rows}
        rowKey={(t) => t.id}
        loading={tools.query.isPending}
        empty={q || server ? 'No tool matches.' : 'No tools discovered yet.'}
        onRowClick={setSelected}
        testId="mcp-tools-table"
      />
      {tools.pager && <Pager {...tools.pager} />}
      <DetailDrawer
        title={selected ? `${selected.server_name}__${selected.name}` : ''}
        record={selected}
        onClose={() => setSelected(null)}
      />
    </>
  );
}
