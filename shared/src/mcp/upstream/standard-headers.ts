/**
 * What the 2026-07-28 revision asks of a client on every POST, added to the requests the
 * session-era SDK client makes too (a server of either generation reads or ignores them):
 * Mcp-Method, Mcp-Name for the methods that name something, and on initialize the
 * MCP-Protocol-Version header and the request _meta the revision defines.
 */
const NAMED_BY: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
const META = 'io.modelcontextprotocol';

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

interface Message {
  method?: unknown;
  params?: Record<string, unknown>;
}

/** initialize's fields, also as the revision's request _meta. */
function withInitializeMeta(message: Message): Message {
  const params = message.params ?? {};
  const meta = {
    [`${META}/protocolVersion`]: params.protocolVersion,
    [`${META}/clientCapabilities`]: params.capabilities,
    [`${META}/clientInfo`]: params.clientInfo,
    ...((params._meta as Record<string, unknown> | undefined) ?? {}),
  };
  return { ...message, params: { ...params, _meta: meta } };
}

export function withStandardHeaders(fetchImpl: typeof fetch, paramHeaders?: ParamHeaders): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    if ((init?.method ?? 'GET') !== 'POST' || typeof init?.body !== 'string') return fetchImpl(input, init);
    let message: Message;
    try {
      message = JSON.parse(init.body) as Message;
    } catch {
      return fetchImpl(input, init);
    }
    if (Array.isArray(message) || typeof message !== 'object' || message === null)
      return fetchImpl(input, init);
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(standardHeaders(message, paramHeaders)))
      if (!headers.has(name)) headers.set(name, value);
    let body = init.body;
    if (message.method === 'initialize') {
      const version = message.params?.protocolVersion;
      if (typeof version === 'string' && !headers.has('mcp-protocol-version'))
        headers.set('mcp-protocol-version', version);
      body = JSON.stringify(withInitializeMeta(message));
    }
    return fetchImpl(input, { ...init, headers, body });
  }) as typeof fetch;
}
