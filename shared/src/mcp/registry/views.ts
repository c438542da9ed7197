import type { McpServerRow, McpToolRow } from '../../db/repos/mcp-repo';

/** The only MCP server shape that leaves the server: no auth_secret, not even encrypted. */
export interface McpServerView {
  id: string;
  name: string;
  description: string | null;
  endpoint_url: string;
  transport_type: McpServerRow['transportType'];
  auth_type: McpServerRow['authType'];
  auth_name: string | null;
  /**
   * The OAuth client registered beforehand (auth_type oauth, oauth_client_credentials,
   * oauth_jwt_bearer); its secret and private key never leave, only whether one is set.
   */
  oauth_client_id: string | null;
  has_oauth_client_secret: boolean;
  has_oauth_private_key: boolean;
  /** auth_type oauth_token_exchange: the identity provider and Sluice's client there (its secret never leaves). */
  idp_issuer: string | null;
  idp_client_id: string | null;
  has_idp_client_secret: boolean;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface McpToolView {
  id: string;
  server_id: string;
  server_name: string;
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export function toMcpServerView(row: McpServerRow): McpServerView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    endpoint_url: row.endpointUrl,
    transport_type: row.transportType,
    auth_type: row.authType,
    auth_name: row.authName,
    oauth_client_id: row.oauthClientId,
    has_oauth_client_secret: row.oauthClientSecretEncrypted !== null,
    has_oauth_private_key: row.oauthPrivateKeyEncrypted !== null,
    idp_issuer: row.idpIssuer,
    idp_client_id: row.idpClientId,
    has_idp_client_secret: row.idpClientSecretEncrypted !== null,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toMcpToolView(row: McpToolRow, serverName: string): McpToolView {
  return {
    id: row.id,
    server_id: row.serverId,
    server_name: serverName,
    name: row.name,
    description: row.description ?? '',
    input_schema: row.inputSchema,
  };
}
