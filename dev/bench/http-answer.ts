/**
 * One HTTP call as a timed case sees it: the status and the body's bytes, read whole; the
 * list items it holds are counted only when asked, after the timing (parsing a large body is
 * the bench's cost, not the server's).
 */
import type { CaseAnswer, ItemCount } from './timed-cases';

/** The items of a list body: an array, a page `{total, entries}`, or an OpenAI list `{data}`. */
export function countItems(body: unknown): ItemCount | null {
  if (Array.isArray(body)) return { count: body.length, total: null };
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
  return {
    status: res.status,
    bytes: body.byteLength,
    items: () => {
      try {
        return countItems(JSON.parse(new TextDecoder().decode(body)));
      } catch {
        return null;
      }
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
