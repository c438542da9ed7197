/**
 * One HTTP call as a timed case sees it: the status and the body's bytes, read whole; the
 * list items it holds are counted only when asked, after the timing (parsing a large body is
 * the bench's cost, not the server's).
 */
import type { CaseAnswer, ItemCount } from './timed-cases';

/** The total of a list answer's X-Total-Count header: a count, or null when absent or not one. */
function totalOf(header: string | null | undefined): number | null {
  if (header == null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

/**
 * The items of a list body: an array (a console list, its total in the X-Total-Count header
 * given as `totalHeader`), a log search's page `{total, entries}`, or an OpenAI list `{data}`.
 */
export function countItems(body: unknown, totalHeader?: string | null): ItemCount | null {
  if (Array.isArray(body)) return { count: body.length, total: totalOf(totalHeader) };
  if (body === null || typeof body !== 'object') return null;
  const { entries, total, data } = body as { entries?: unknown; total?: unknown; data?: unknown };
  if (Array.isArray(entries))
    return { count: entries.length, total: typeof total === 'number' ? total : null };
  if (Array.isArray(data)) return { count: data.length, total: null };
  return null;
}

export async function httpAnswer(url: string, init: RequestInit = {}): Promise<CaseAnswer> {
  const res = await fetch(url, init);
  const body = new Uint8Array(await res.arrayBuffer());
  const totalHeader = res.headers.get('x-total-count');
  return {
    status: res.status,
    bytes: body.byteLength,
    items: () => {
      try {
        return countItems(JSON.parse(new TextDecoder().decode(body)), totalHeader);
      } catch {
        return null;
      }
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
