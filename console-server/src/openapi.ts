import { OpenAPIHono, z } from '@hono/zod-openapi';
import { notFound, unprocessable } from '@sluice/shared/http';
import type { Context } from 'hono';
import { refuseBody } from './middleware/found-first';
import type { ConsoleEnv } from './types';
import { findUnknownFields } from './validation/unknown-fields';

/**
 * Every console router is built here so validation failures take one path: a bad path
 * parameter (a malformed UUID) is a 404; a body with a schema failure or a field the schema
 * does not know, or a body sent to an operation that takes none, is a 422 with details —
 * unless the resource the path names does not exist (see foundFirst), which is a 404 first.
 * Malformed JSON never reaches the hook: Hono throws a 400 that onError renders.
 */
export function createRouter(): OpenAPIHono<ConsoleEnv> {
  const router = new OpenAPIHono<ConsoleEnv>({
    defaultHook: async (result, c) => {
      if (result.target === 'param') {
        if (!result.success) throw notFound('Not found');
        return;
      }
      const details = result.success
        ? await unknownBodyFields(result.target, result.data, c)
        : result.error.issues.flatMap(issueDetails);
      if (details.length === 0) return;
      if (result.target === 'json') await c.var.findResource?.();
      const summary = details.map((d) => `${d.path || result.target} ${d.message}`).join('; ');
      throw unprocessable(`Invalid request: ${summary}`, details);
    },
  });
  const register = router.openapi;
  router.openapi = ((route: AnyRoute, handler: AnyHandler, hook?: AnyHook) =>
    register(route, withoutBody(route, handler), hook)) as typeof router.openapi;
  return router;
}

const UNKNOWN_FIELD = 'is not a known field';

async function unknownBodyFields(target: string, data: unknown, c: Context<ConsoleEnv>) {
  if (target !== 'json') return [];
  const fields = findUnknownFields(await c.req.json(), data);
  return fields.map((path) => ({ path, message: UNKNOWN_FIELD }));
}

/** A strict object's unrecognized keys read like the unknown fields found after a parse. */
function issueDetails(issue: z.core.$ZodIssue): Array<{ path: string; message: string }> {
  const at = (path: PropertyKey[]) => path.map(String).join('.');
  if (issue.code !== 'unrecognized_keys') return [{ path: at(issue.path), message: issue.message }];
  return issue.keys.map((key) => ({ path: at([...issue.path, key]), message: UNKNOWN_FIELD }));
}

type Register = OpenAPIHono<ConsoleEnv>['openapi'];
type AnyRoute = Parameters<Register>[0];
type AnyHandler = Parameters<Register>[1];
type AnyHook = Parameters<Register>[2];
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * A write operation that declares no body refuses one rather than ignore it; checked in the
 * handler's place so the path parameters are validated first.
 */
function withoutBody(route: AnyRoute, handler: AnyHandler): AnyHandler {
  if (!WRITE_METHODS.has(route.method) || route.request?.body) return handler;
  return (async (...args: Parameters<AnyHandler>) => {
    await refuseBody(args[0]);
    return handler(...args);
  }) as AnyHandler;
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

/** What every paged list says about its query and answer (db/paging.ts). */
export const PAGING =
  'Paged: limit 1..200 (default 50) entries from offset (default 0), in a stable order, answered as a ' +
  'JSON array; the X-Total-Count header counts every entry the filters match.';

/** The header a list's total travels in (the body is the page's array). */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/**
 * A list's 200: one page as a JSON array (the shape the spec gives the console's lists), with
 * the total the filters match in X-Total-Count, so a client knows how many pages there are.
 */
export function listResponse<T extends z.ZodType>(schema: T, description: string) {
  return {
    description,
    headers: {
      [TOTAL_COUNT_HEADER]: {
        description: 'Entries matching the filters, over every page',
        schema: { type: 'integer' as const, minimum: 0 },
      },
    },
    content: { 'application/json': { schema } },
  };
}

/** Answers one page of a list: its entries as the body, its total in X-Total-Count. */
export function sendPage<T>(c: Context, page: { total: number; entries: T[] }) {
  c.header(TOTAL_COUNT_HEADER, String(page.total));
  return c.json(page.entries, 200);
}
