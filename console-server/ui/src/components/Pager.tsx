import { Group, Pagination, Select, Text } from '@mantine/core';

interface Props {
  total: number;
  offset: number;
  limit: number;
  onChange: (page: { offset: number; limit: number }) => void;
  pageSizes?: number[];
}

/** Offset paging as the log views answer it ({total, offset, limit}). */
export function Pager({ total, offset, limit, onChange, pageSizes = [25, 50, 100, 200] }: Props) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const page = Math.floor(offset / limit) + 1;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed" data-testid="pager-summary">
        {first}–{last} of {total}
      </Text>
      <Group gap="sm">
        <Select
          aria-label="Rows per page"
          w={90}
          size="xs"
          data={pageSizes.map(String)}
          value={String(limit)}
          onChange={(v) => v && onChange({ offset: 0, limit: Number(v) })}
          allowDeselect={false}
        />
        <Pagination
          size="sm"
          total={pages}
          value={page}
          onChange={(p) => onChange({ offset: (p - 1) * limit, limit })}
        />
      </Group>
    </Group>
  );
}
