import { type JsonRpcId, McpRpcError, RPC } from './jsonrpc';

/** The request parameter each method names in Mcp-Name (2026-07-28 standard headers). */
const NAMED_BY: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** Whether the method names its target in Mcp-Name (the header is then required on a stateless request). */
export const namesItsTarget = (method: string): boolean => NAMED_BY[method] !== undefined;

/** `=?base64?…?=` carries a value that is not plain printable ASCII. */
function decoded(value: string): string {
  const wrapped = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!wrapped?.[1]) return value;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(wrapped[1]), (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}

/** The Mcp-Name header as its sender meant it (decoded when base64-wrapped); undefined when not sent. */
export function mcpNameOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  const name = headers?.['mcp-name'];
  return name === undefined ? undefined : decoded(name);
}

/**
 * A request's Mcp-Method and Mcp-Name headers, when sent, must say what its body says: a
 * gateway or proxy that routes on them must not be told one thing while the server does
 * another. A mismatch is 400 (JSON-RPC -32020, header mismatch), before anything is done.
 */
export function checkStandardHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  message: { method: string; params?: Record<string, unknown>; id?: JsonRpcId },
): void {
  const method = headers?.['mcp-method'];
  const id = message.id ?? null;
  if (method !== undefined && method !== message.method)
    throw new McpRpcError(
      400,
      RPC.headerMismatch,
      `Mcp-Method header ${method} does not match the body's method ${message.method}`,
      id,
    );
  const name = mcpNameOf(headers);
  const field = NAMED_BY[message.method];
  if (name === undefined || field === undefined) return;
  const named = message.params?.[field];
  if (name !== named)
    throw new McpRpcError(
      400,
      RPC.headerMismatch,
      `Mcp-Name header does not match the body's params.${field}`,
      id,
    );
}
