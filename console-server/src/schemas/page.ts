import { z } from '@hono/zod-openapi';

/**
 * The one page shape of the console's lists (db/paging.ts): `limit` entries from `offset`, and
 * the total the same filters match, so a client knows how many pages there are.
 */
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
