import { Alert } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ApiError, errorMessage } from './errors';

/**
 * Puts a failed request's 422 issues next to the form fields they name (form field names
 * mirror the API body's dotted paths, e.g. `admin.password`, `routes.0.upstream_model`).
 * Returns the message for what no field shows: a non-422 error, or issues on unknown paths.
 * `rename` maps an API path to a different form field where the two differ.
 */
export function applyApiErrors<V>(
  form: UseFormReturnType<V>,
  error: unknown,
  rename: Record<string, string> = {},
): string | null {
  if (!(error instanceof ApiError) || error.issues.length === 0) return errorMessage(error);
  const rest: string[] = [];
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = rename[issue.path] ?? issue.path;
    if (field && hasField(form.getValues(), field)) fields[field] = issue.message;
    else rest.push(`${issue.path || 'request'}: ${issue.message}`);
  }
  form.setErrors(fields);
  return rest.length > 0 ? rest.join('; ') : null;
}

function hasField(values: unknown, path: string): boolean {
  let cursor: unknown = values;
  for (const part of path.split('.')) {
    if (typeof cursor !== 'object' || cursor === null || !(part in cursor)) return false;
    cursor = (cursor as Record<string, unknown>)[part];
  }
  return true;
}

/** The form-level error line (what applyApiErrors could not put on a field). */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" title="Request failed" data-testid="form-alert">
      {message}
    </Alert>
  );
}
