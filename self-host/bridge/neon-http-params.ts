/** A bind parameter in Postgres text format; null is SQL NULL. */
export type PgTextParam = string | null;

/**
 * Turns one JSON `params` entry into Postgres text the way Neon's endpoint does. The official
 * driver already serialises every value to a string (pg's prepareValue: Dates as ISO with
 * offset, arrays as array literals, Buffers as '\x…' hex, objects as JSON), so this mostly
 * passes strings through; the other JSON shapes only come from hand-written clients.
 */
export function toPgTextParam(value: unknown): PgTextParam {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return toArrayLiteral(value);
  return JSON.stringify(value);
}

function toArrayLiteral(items: unknown[]): string {
  const elements = items.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return toArrayLiteral(item);
    const text = typeof item === 'string' ? item : JSON.stringify(item);
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${elements.join(',')}}`;
}
