import { OpenAPIHono, z } from '@hono/zod-openapi';
import { notFound, unprocessable } from '@sluice/shared/http/app-error';
import type { ConsoleEnv } from './types';

/**
 * Every console router is built here so validation failures take one path: a bad path
 * parameter (a malformed UUID) is a 404, any other schema failure a 422 with details.
 * Malformed JSON never reaches the hook: Hono throws a 400 that onError renders.
 */
export function createRouter(): OpenAPIHono<ConsoleEnv> {
  return new OpenAPIHono<ConsoleEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      if (result.target === 'param') throw notFound('Not found');
      const details = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const summary = details.map((d) => `${d.path || result.target} ${d.message}`).join('; ');
      throw unprocessable(`Invalid request: ${summary}`, details);
    },
  });
}

export const ErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .openapi('Error');

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request',
  401: 'Missing or invalid access token',
  403: 'Caller is not allowed (admin role or permission required)',
  404: 'Not found (or not owned by the caller)',
  409: 'Conflict with an existing resource',
  413: 'Request body too large',
  422: 'Validation failed',
  429: 'Too many requests; see Retry-After',
  502: 'Upstream unreachable',
  503: 'A critical store is unreachable',
};

/** Error responses for a route's documented statuses, all in the console envelope. */
export function errorResponses<S extends number>(...statuses: S[]) {
  const entries = statuses.map((status) => [
    status,
    {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: ErrorSchema } },
    },
  ]);
  return Object.fromEntries(entries) as Record<
    S,
    { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }
  >;
}

export function jsonBody<T extends z.ZodType>(schema: T, description = 'JSON body') {
  return { required: true, description, content: { 'application/json': { schema } } };
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export const noContent = { description: 'No content' } as const;

export const IdParams = z.object({
  id: z
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, example: '6f1c3a7e-5b7e-4f4e-9a51-2c1f0f6b9d10' }),
});

export const bearerSecurity = [{ bearerAuth: [] }];
