import { type JsonRpcId, McpRpcError, RPC } from '../jsonrpc';

/**
 * The stateless revision (2026-07-28, SEP-2575): no initialize and no session; every request
 * names its protocol version in the MCP-Protocol-Version header and, with the client's
 * capabilities, in `params._meta`. What follows decides whether a POST is such a request and
 * refuses a malformed one with the revision's errors (HTTP 400).
 */
export const STATELESS_VERSIONS = ['2026-07-28'] as const;
/** Revisions with the initialize/session lifecycle: their traffic is not held to these rules. */
const SESSION_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The revision's error codes beside JSON-RPC's own. */
export const STATELESS_RPC = { headerMismatch: RPC.headerMismatch, unsupportedVersion: -32022 } as const;

export interface StatelessEnvelope {
  version: (typeof STATELESS_VERSIONS)[number];
  clientCapabilities: Record<string, unknown>;
}

export interface StatelessHeaders {
  sessionId: string | null;
  /** MCP-Protocol-Version. */
  protocolVersion: string | null;
}

function metaOf(body: unknown): Record<string, unknown> | undefined {
  const params = (body as { params?: unknown } | null)?.params;
  const meta =
    typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/**
 * null for session-era traffic (a session header, or neither header nor `_meta`, or a session
 * revision in the header without `_meta`); the envelope of a well-formed stateless request;
 * else the McpRpcError the revision prescribes.
 */
export function statelessEnvelope(
  headers: StatelessHeaders,
  body: unknown,
  id: JsonRpcId | null,
): StatelessEnvelope | null {
  const header = headers.protocolVersion;
  const meta = metaOf(body);
  if (headers.sessionId !== null || (header === null && meta === undefined)) return null;
  if (meta === undefined && header !== null && SESSION_VERSIONS.has(header)) return null;
  if (header === null) {
    throw new McpRpcError(400, STATELESS_RPC.headerMismatch, 'Missing MCP-Protocol-Version header', id);
  }
  const version = meta?.[META.protocolVersion];
  const capabilities = meta?.[META.clientCapabilities];
  if (typeof version !== 'string' || typeof capabilities !== 'object' || capabilities === null) {
    throw new McpRpcError(
      400,
      RPC.invalidParams,
      `Invalid params: _meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`,
      id,
    );
  }
  if (version !== header) {
    throw new McpRpcError(400, STATELESS_RPC.headerMismatch, 'Mismatched MCP-Protocol-Version header', id);
  }
  const supported = STATELESS_VERSIONS.find((known) => known === version);
  if (!supported) {
    throw new McpRpcError(400, STATELESS_RPC.unsupportedVersion, 'Unsupported protocol version', id, {
      supported: [...STATELESS_VERSIONS],
      requested: version,
    });
  }
  return { version: supported, clientCapabilities: capabilities as Record<string, unknown> };
}
