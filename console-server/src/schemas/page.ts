import { z } from '@hono/zod-openapi';

/**
 * The console's two list shapes (db/paging.ts pages both: `limit` entries from `offset`, in a
 * stable order). A list of things (keys, users, providers, roles, …) answers a JSON array, as
 * the spec gives them, with the total in X-Total-Count (openapi.ts listResponse, sendPage). A
 * log search answers { total, offset, limit, entries }, the envelope of the spec's log endpoints.
 */
export const listSchema = <T extends z.ZodType>(entry: T, name: string) => z.array(entry).openapi(name);

export const pageSchema = <T extends z.ZodType>(entry: T, name: string, what = 'Entries') =>
  z
    .object({
      total: z
        .number()
        .int()
        .openapi({ description: `${what} matching the filters` }),
      offset: z.number().int(),
      limit: z.number().int(),
      entries: z.array(entry),
    })
    .openapi(name);
