import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { usePagedQuery } from '../../api/paging';
import type { Schemas } from '../../api/types';
import { type Column, DataTable } from '../../components/DataTable';
import { Pager } from '../../components/Pager';
import { QueryError } from '../../components/QueryError';
import { formatDate } from '../../lib/format';
import { ToolLimitForm } from './ToolLimitForm';
import { SUBJECT_LABELS, toolLimitText } from './tool-limit-text';

type Item = Schemas['ToolLimitOverviewItem'];

export const TOOL_LIMITS_QUERY = ['tool-limits'] as const;

/** Rate limits and call budgets on MCP tools, of every role, user and key: listed, added, removed. */
export function ToolLimitsTab() {
  const queryClient = useQueryClient();
  const limits = usePagedQuery(TOOL_LIMITS_QUERY, (page) =>
    unwrapPage(api.GET('/api/admin/limits/tool-limits', { params: { query: page } }), page),
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: TOOL_LIMITS_QUERY });
    void queryClient.invalidateQueries({ queryKey: ['limits-usage'] });
  };
  const remove = useMutation({
    mutationFn: (l: Item) =>
      unwrap(
        api.DELETE('/api/admin/limits/{subject}/{id}/tool-limits/{limit_id}', {
          params: { path: { subject: l.subject_type, id: l.subject_id, limit_id: l.id } },
        }),
      ),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const columns: Column<Item>[] = [
    {
      key: 'subject',
      header: 'Applies to',
      render: (l) => `${SUBJECT_LABELS[l.subject_type]} ${l.subject_name ?? l.subject_id}`,
    },
    { key: 'tool', header: 'Tool', render: (l) => l.tool },
    { key: 'limit', header: 'Limit', render: (l) => toolLimitText(l) },
    {
      key: 'kind',
      header: 'Counted',
      render: (l) => (l.kind === 'rate' ? 'sliding window' : 'per period, UTC'),
    },
    { key: 'created', header: 'Added', render: (l) => formatDate(l.created_at) },
    {
      key: 'actions',
      header: '',
      render: (l) => (
        <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(l)}>
          Remove
        </Button>
      ),
    },
  ];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Calls through /mcp, /mcp/&lt;server&gt; and virtual servers count on every limit whose pattern covers
        the tool: the key's own and its owner's (their roles, most restrictive wins, then their own). A
        pattern counts all the calls it covers together; a call over a limit is refused before the server sees
        it.
      </Text>
      <ToolLimitForm onAdded={refresh} />
      <QueryError error={limits.query.error} />
      <DataTable
        columns={columns}
        rows={limits.rows}
        rowKey={(l) => l.id}
        loading={limits.query.isPending}
        empty="No tool limits."
        testId="tool-limits-table"
      />
      {limits.pager && <Pager {...limits.pager} />}
    </Stack>
  );
}
