import { z } from '@hono/zod-openapi';
import { parseStatusMatch, STATUS_MATCH_PATTERN, type StatusMatch } from '@sluice/shared/logs';

/** The validated parameter as the stores' match; undefined when not given. */
export function statusMatchOf(text: string | undefined): StatusMatch | undefined {
  return text === undefined ? undefined : parseStatusMatch(text);
}

/**
 * The `status_code` filter of the gateway and access logs: one code (`429`) or a class of
 * codes (`4xx`, 400..499); statusMatchOf makes it the stores' StatusMatch.
 */
export const statusMatchParam = z
  .string()
  .regex(STATUS_MATCH_PATTERN, 'must be a status code (100..599) or a class (1xx, 2xx, 3xx, 4xx, 5xx)')
  .optional()
  .openapi({
    description:
      'One status code (e.g. 429) or a class of them: 1xx, 2xx, 3xx, 4xx or 5xx (e.g. 4xx = 400..499)',
    examples: ['4xx', '429'],
  });
