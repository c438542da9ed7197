/**
 * A status filter of the log views (request log, access log): one code (`429`) or a class of
 * codes (`4xx` = 400..499). Both adapters of both logs match it as an inclusive range.
 */

/** The HTTP status codes the logs can hold; also keeps a value inside Postgres integer and UInt16. */
export const MIN_STATUS_CODE = 100;
export const MAX_STATUS_CODE = 599;

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
export type StatusMatch = number | StatusClass;

/** What the console's `status_code` query parameter takes: `429` or `4xx`. */
export const STATUS_MATCH_PATTERN = /^(?:[1-5]xx|[1-5]\d\d)$/;

/** A query parameter checked against STATUS_MATCH_PATTERN as the store's match. */
export function parseStatusMatch(text: string): StatusMatch {
  return (STATUS_CLASSES as readonly string[]).includes(text) ? (text as StatusClass) : Number(text);
}

/** The inclusive range of codes a match covers; RangeError for a code outside 100..599 or an unknown class. */
export function statusRange(match: StatusMatch): { min: number; max: number } {
  if (typeof match === 'number') {
    if (!Number.isSafeInteger(match) || match < MIN_STATUS_CODE || match > MAX_STATUS_CODE) {
      throw new RangeError(`invalid status code ${match} (${MIN_STATUS_CODE}..${MAX_STATUS_CODE})`);
    }
    return { min: match, max: match };
  }
  if (!STATUS_CLASSES.includes(match)) throw new RangeError(`invalid status class ${String(match)}`);
  const min = Number(match[0]) * 100;
  return { min, max: min + 99 };
}
