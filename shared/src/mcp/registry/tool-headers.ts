/**
 * SEP-2243: a tool's input property may ask to be mirrored into a request header
 * (`"x-mcp-header": "Region"` → `Mcp-Param-Region`). A tool whose designations are malformed
 * — empty, not a header token, repeated (case-insensitively), or on a property that is not a
 * string, integer or boolean — is left out of the catalog: a client must not call it,
 * and one bad tool must not hide the others.
 */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Not number: a float's text has no one canonical form to compare a header against.
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);

/** Why the tool's x-mcp-header designations are invalid; null when they are fine (or absent). */
export function invalidToolHeaders(inputSchema: Record<string, unknown>): string | null {
  const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const seen = new Set<string>();
  for (const [name, property] of Object.entries(properties)) {
    if (!property || !('x-mcp-header' in property)) continue;
    const header = property['x-mcp-header'];
    if (typeof header !== 'string' || header === '')
      return `${name}: x-mcp-header must be a non-empty string`;
    if (!TOKEN.test(header)) return `${name}: x-mcp-header ${JSON.stringify(header)} is not a header name`;
    if (seen.has(header.toLowerCase())) return `${name}: x-mcp-header ${header} is used twice`;
    seen.add(header.toLowerCase());
    if (typeof property.type !== 'string' || !PRIMITIVE.has(property.type))
      return `${name}: x-mcp-header needs a string, integer or boolean property`;
  }
  return null;
}

/** A sound tool's designations: [property, header name] pairs (Mcp-Param-<header name>). */
export function designatedHeaders(inputSchema: Record<string, unknown>): Array<[string, string]> {
  const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const pairs: Array<[string, string]> = [];
  for (const [name, property] of Object.entries(properties)) {
    const header = property?.['x-mcp-header'];
    if (typeof header === 'string' && header !== '') pairs.push([name, header]);
  }
  return pairs;
}
