import { Code, Drawer, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  title: ReactNode;
  /** The record to show; the drawer is closed while it is null. */
  record: Record<string, unknown> | null;
  onClose: () => void;
  children?: ReactNode;
}

function show(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <Text c="dimmed">—</Text>;
  if (typeof value === 'object') return <Code block>{JSON.stringify(value, null, 2)}</Code>;
  return String(value);
}

/** A right-hand drawer listing every field of a record (log entries, audit records). */
export function DetailDrawer({ title, record, onClose, children }: Props) {
  return (
    <Drawer opened={record !== null} onClose={onClose} title={title} position="right" size="lg">
      {record && (
        <Stack>
          {children}
          <Table data-testid="detail-table">
            <Table.Tbody>
              {Object.entries(record).map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Th style={{ width: 180, verticalAlign: 'top' }}>{key}</Table.Th>
                  <Table.Td>{show(value)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Drawer>
  );
}
