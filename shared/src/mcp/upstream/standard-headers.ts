/**
 * The standard headers the 2026-07-28 revision asks of a client on every POST: Mcp-Method,
 * Mcp-Name for the methods that name something, Mcp-Param-* for the arguments a tool
 * designates. The stateless client sends them (stateless-upstream.ts), and so do session-era
 * requests (withStandardHeaders): they are plain HTTP headers, which a session-era server
 * ignores and a server of both generations does not take for a stateless request (that is
 * decided by MCP-Protocol-Version at the revision or by the request's _meta, neither of which a
 * session-era request carries).
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

/**
 * A fetch that adds the standard headers to each JSON-RPC POST of a session-era client (the
 * SDK's transport), initialize and notifications included, so a server or proxy of the
 * revision can route them without reading the body. Headers already set are kept; the body is
 * sent as it is (no _meta, no MCP-Protocol-Version: those would make the request a stateless
 * one). A batch or a body that is not JSON goes out untouched.
 */
export function withStandardHeaders(fetchImpl: typeof fetch, paramHeaders?: ParamHeaders): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const message = jsonRpcMessageOf(init);
    if (!message) return fetchImpl(input, init);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(standardHeaders(message, paramHeaders)))
      if (!headers.has(name)) headers.set(name, value);
    return fetchImpl(input, { ...init, headers });
  }) as typeof fetch;
}

/** The one JSON-RPC message a POST's string body holds, else null. */
function jsonRpcMessageOf(init: RequestInit | undefined): { method?: unknown; params?: unknown } | null {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init?.body !== 'string') return null;
  try {
    const message: unknown = JSON.parse(init.body);
    return typeof message === 'object' && message !== null && !Array.isArray(message) ? message : null;
  } catch {
    return null;
  }
}
