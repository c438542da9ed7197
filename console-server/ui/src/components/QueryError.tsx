import { Alert } from '@mantine/core';
import { errorMessage } from '../api/errors';

/** A failed query's message, in place of the content it could not load. */
export function QueryError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" title="Could not load" mb="md">
      {errorMessage(error)}
    </Alert>
  );
}
