import { Text } from '@mantine/core';
import { PageHeader } from './PageHeader';

/** A route whose screen is not built yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Text c="dimmed">This screen is coming soon.</Text>
    </>
  );
}
