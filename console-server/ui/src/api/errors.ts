/**
 * The console's one error envelope, {error: {message, type, details?}}, as a thrown value.
 * A 422 carries details [{path: 'a.b', message}] (console-server/src/openapi.ts): the dotted
 * path is the body field, which is also the form field name the UI uses.
 */
export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Field issues of a validation failure; empty for every other error. */
  get issues(): FieldIssue[] {
    if (this.status !== 422 || !Array.isArray(this.details)) return [];
    return this.details.filter(
      (d): d is FieldIssue =>
        typeof d === 'object' && d !== null && typeof d.path === 'string' && typeof d.message === 'string',
    );
  }
}

function envelope(body: unknown): { message: string; type: string; details?: unknown } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { message, type, details } = error as Record<string, unknown>;
  return { message: String(message ?? 'Request failed'), type: String(type ?? 'error'), details };
}

export function toApiError(status: number, body: unknown): ApiError {
  const e = envelope(body);
  return new ApiError(
    status,
    e?.message ?? `Request failed with status ${status}`,
    e?.type ?? 'error',
    e?.details,
  );
}

/** A message for any thrown value, for notifications and alerts. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
