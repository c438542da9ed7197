/**
 * The standard headers the 2026-07-28 revision asks of a client on every POST, as the
 * stateless client sends them (stateless-upstream.ts): Mcp-Method, Mcp-Name for the methods
 * that name something, Mcp-Param-* for the arguments a tool designates. Not on session-era
 * requests: a server that speaks both generations takes a request with Mcp-Method for a
 * stateless one (the reference server then drops the session's progress, logs and requests).
 */
const NAMED_BY: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** A header value as the revision encodes it: plain printable ASCII, else `=?base64?…?=`. */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value);
  if (plain) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** A tool's parameters the server wants mirrored into headers: [argument, header name] pairs. */
export type ParamHeaders = (tool: string) => ReadonlyArray<readonly [string, string]>;

/**
 * The standard headers of one JSON-RPC message; a tools/call also mirrors each argument its
 * tool designates (x-mcp-header) into `Mcp-Param-<name>`, a null or absent one left out.
 */
export function standardHeaders(
  message: { method?: unknown; params?: unknown },
  paramHeaders?: ParamHeaders,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof message.method !== 'string') return headers;
  headers['mcp-method'] = message.method;
  const field = NAMED_BY[message.method];
  const params = (message.params ?? {}) as Record<string, unknown>;
  const named = field ? params[field] : undefined;
  if (typeof named === 'string') headers['mcp-name'] = headerValue(named);
  if (message.method === 'tools/call' && typeof named === 'string' && paramHeaders) {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    for (const [argument, header] of paramHeaders(named)) {
      const value = args[argument];
      if (value === null || value === undefined || typeof value === 'object') continue;
      headers[`mcp-param-${header.toLowerCase()}`] = headerValue(String(value));
    }
  }
  return headers;
}
