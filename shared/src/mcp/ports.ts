/**
 * The seams between the MCP pieces: the upstream client (shared/src/mcp/upstream/), the
 * console's registry (shared/src/mcp/registry/), the gateway's /mcp endpoint
 * (shared/src/mcp/gateway/) and the MCP call log (shared/src/logs/mcp/). Nothing here knows
 * Hono or a runtime.
 */

import type { McpAuthType } from '../db/schema/mcp';
import type { CountedToolCallRow } from '../limits/tool-counter-rebuild';
import type { DpopKey } from './oauth/dpop';
import type { ExchangeCredentials } from './oauth/exchange-token';

/** A registered upstream MCP server with its secret opened, ready to connect to. */
export interface McpServerTarget {
  id: string;
  name: string;
  endpointUrl: string;
  transportType: 'streamable_http' | 'sse';
  /**
   * `oauth` is resolved to `bearer` with the calling user's token before a target is used; the
   * machine types (with `machine`) to `bearer` with the token Sluice gets for itself.
   */
  authType: McpAuthType;
  /** Header name (auth_type header) or query parameter name (auth_type query). */
  authName: string | null;
  /** Decrypted; never logged or returned. */
  authSecret: string | null;
  /**
   * The key a user's token (the bearer secret) is bound to (DPoP, RFC 9449): the token is sent
   * as `Authorization: DPoP`, with a proof signed by this key. Never logged or returned.
   */
  dpopKey?: DpopKey;
  /**
   * The server refused the credential (401), or found its scope short (403 insufficient_scope,
   * naming the scope it wants): what the caller gets instead (a user's token that was revoked
   * upstream is forgotten, and the user told to connect again, for the wider scope if asked).
   */
  onUnauthorized?(refusal: CredentialRefusal): Promise<never>;
  /** Arguments of a tool the server wants as Mcp-Param headers (SEP-2243), from its catalog entry. */
  paramHeaders?(tool: string): ReadonlyArray<readonly [string, string]>;
  /** How Sluice gets its own token for the server (machine auth types), its secrets opened. */
  machine?: MachineCredentials;
  /** auth_type oauth_token_exchange: how each user's ID token becomes their token, secrets opened. */
  exchange?: ExchangeCredentials;
  /**
   * The server refused the bearer secret `refused` (401): a fresh one (a token fetched again),
   * to send that request once more with. A failure to get one is thrown to the caller.
   */
  renewSecret?(refused: string): Promise<string>;
}

/**
 * A server Sluice signs in to as itself: the grant, the client it is at the authorization server
 * (client_credentials needs one with a secret or a private key; optional for jwt_bearer) and,
 * for jwt_bearer, the workload's JWT presented as the assertion. Never logged or returned.
 */
export interface MachineCredentials {
  grant: 'client_credentials' | 'jwt_bearer';
  clientId: string | null;
  clientSecret: string | null;
  /** PKCS#8 PEM: the client authenticates with assertions it signs (private_key_jwt). */
  privateKey: string | null;
  assertion: string | null;
}

/** How an upstream refused a credential: its status and the scope its challenge named. */
export interface CredentialRefusal {
  status: 401 | 403;
  /** The Bearer challenge's `scope` (RFC 6750 § 3), or null. */
  scope: string | null;
}

export interface McpToolDescriptor {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** Results are passed through as the upstream sent them (MCP JSON objects). */
export type McpResult = Record<string, unknown>;

/**
 * A list as one server answered it, with the caching hints of the stateless revision when it
 * gave them (cache-hints.ts); `ttlMs` is what is left of it when it came from the gateway's cache.
 */
export interface UpstreamList {
  items: McpResult[];
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** One connection to one upstream server, speaking its transport with its auth injected. */
export interface UpstreamMcpSession {
  /** The upstream's Mcp-Session-Id (streamable HTTP), so another isolate can resume it. */
  readonly sessionId: string | undefined;
  /** Follows nextCursor until the list is complete. */
  listTools(): Promise<McpToolDescriptor[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onProgress?: (progress: McpResult) => void,
    /** Request `_meta` entries (the trace context); the call's own keys win. */
    meta?: Record<string, string>,
  ): Promise<McpResult>;
  listResources(): Promise<UpstreamList>;
  readResource(uri: string): Promise<McpResult>;
  listPrompts(): Promise<UpstreamList>;
  getPrompt(name: string, args: Record<string, string>): Promise<McpResult>;
  listResourceTemplates(): Promise<UpstreamList>;
  /** completion/complete, params as the client sent them (the ref already in the server's names). */
  complete(params: McpResult): Promise<McpResult>;
  setLoggingLevel(level: string): Promise<void>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  /**
   * Opens the server's stream of messages that answer no request (resource updates), which go
   * to the connection's channel until it is closed. Streamable HTTP only; a no-op elsewhere.
   */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when an upstream cannot be reached or does not speak MCP: the caller answers 502. */
export class UpstreamMcpUnavailable extends Error {
  override name = 'UpstreamMcpUnavailable';
}

/** The server-to-client requests the gateway relays, by the client capability each needs. */
export const RELAYED_REQUESTS = {
  sampling: 'sampling/createMessage',
  elicitation: 'elicitation/create',
  roots: 'roots/list',
} as const;
export type RelayedCapability = keyof typeof RELAYED_REQUESTS;

/** A client's refusal of a relayed request, passed on to the upstream as its JSON-RPC error. */
export class RelayedRequestError extends Error {
  override name = 'RelayedRequestError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The client of one gateway request, as an upstream sees it while that request is open: the
 * client's capabilities (declared upstream at initialize), its answers to the upstream's
 * requests (sampling, elicitation, roots) and the upstream's notifications (log messages).
 */
export interface ClientChannel {
  /** Of the client's capabilities, those of RELAYED_REQUESTS it declared. */
  capabilities: Partial<Record<RelayedCapability, McpResult>>;
  /** The client's result; rejects with RelayedRequestError when it refused. */
  request(method: string, params: McpResult | undefined): Promise<McpResult>;
  notify(method: string, params: McpResult | undefined): void;
  /** Told when the upstream ended its event stream mid-call and resumed it with Last-Event-ID. */
  onUpstreamResumed?: () => void;
}

export interface ConnectOptions {
  timeoutMs: number;
  resumeSessionId?: string;
  /** Capabilities to declare at initialize when no channel gives them (tool discovery). */
  capabilities?: ClientChannel['capabilities'];
  /** Where the upstream's requests and notifications for the client go. */
  channel?: ClientChannel;
  /** The calling span's traceparent / tracestate, sent on every request of the connection. */
  traceHeaders?: Record<string, string>;
  /** The user the connection acts for: list results are cached for them (none without it). */
  userId?: string;
}

export interface UpstreamMcpConnector {
  /** Connects (initialize), or resumes an upstream session another isolate opened. */
  connect(server: McpServerTarget, options: ConnectOptions): Promise<UpstreamMcpSession>;
}

/** One tools/call through the gateway, for GET /api/mcp/logs. */
export interface McpLogRecord {
  id: string;
  createdAt: Date;
  userId: string | null;
  apiKeyId: string | null;
  serverId: string;
  serverName: string;
  toolName: string;
  status: 'success' | 'error';
  durationMs: number;
  error: string | null;
}

export interface McpLogFilter {
  userId?: string;
  serverId?: string;
  toolName?: string;
  status?: 'success' | 'error';
  from?: Date;
  to?: Date;
  sortBy?: 'duration_ms' | 'created_at';
  limit?: number;
  offset?: number;
}

/** ClickHouse when configured, else Postgres; the same shape either way. */
export interface McpLogStore {
  insert(records: readonly McpLogRecord[]): Promise<void>;
  list(filter: McpLogFilter): Promise<{ total: number; entries: McpLogRecord[] }>;
  /**
   * The calls the tool gate let through (refusals left out, refusals.ts) that started in
   * [since, before), per caller, tool and UTC day: what rebuilds the tool counters.
   */
  countedCalls(query: { since: Date; before: Date }): Promise<CountedToolCallRow[]>;
}
