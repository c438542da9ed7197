import { Card, Title } from '@mantine/core';
import { type Column, DataTable } from '../../components/DataTable';

/** One breakdown of the range's requests (by model, endpoint, client, error) as a titled table. */
export function BreakdownCard<T>(props: {
  title: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading: boolean;
  testId: string;
  empty?: string;
}) {
  return (
    <Card withBorder>
      <Title order={5} mb="xs">
        {props.title}
      </Title>
      <DataTable
        columns={props.columns}
        rows={props.rows}
        rowKey={props.rowKey}
        loading={props.loading}
        empty={props.empty ?? 'No requests in this range.'}
        testId={props.testId}
      />
    </Card>
  );
}
