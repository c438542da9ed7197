import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { DetailDrawer } from '../../components/DetailDrawer';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useMcpTools } from './mcp-queries';

type Tool = Schemas['McpToolList'][number];

const columns: Column<Tool>[] = [
  { key: 'server', header: 'Server', render: (t) => t.server_name },
  { key: 'name', header: 'Tool', render: (t) => t.name },
  { key: 'gateway', header: 'Name on /mcp', render: (t) => `${t.server_name}__${t.name}` },
  { key: 'description', header: 'Description', render: (t) => t.description },
];

/** Every discovered tool; a click shows its input schema. Open to every signed-in user. */
export function McpToolsPage() {
  const tools = useMcpTools();
  const [server, setServer] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Tool | null>(null);
  const needle = search.trim().toLowerCase();
  const rows = tools.data?.filter(
    (t) =>
      (!server || t.server_name === server) &&
      (!needle || t.name.toLowerCase().includes(needle) || t.description.toLowerCase().includes(needle)),
  );
  const serverNames = [...new Set(tools.data?.map((t) => t.server_name))];
  return (
    <>
      <PageHeader
        title="MCP tools"
        description="Tools of the registered MCP servers, callable through the gateway's /mcp endpoint."
      />
      <QueryError error={tools.error} />
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
        rows={rows}
        rowKey={(t) => t.id}
        loading={tools.isPending}
        empty="No tools discovered yet."
        onRowClick={setSelected}
        testId="mcp-tools-table"
      />
      <DetailDrawer
        title={selected ? `${selected.server_name}__${selected.name}` : ''}
        record={selected}
        onClose={() => setSelected(null)}
      />
    </>
  );
}
