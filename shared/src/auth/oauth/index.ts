// What the apps use of auth/oauth/. Inside shared/src, import the files themselves.
export { createMcpAccessTokens, type McpAccessTokens, revokedGrantKey } from './access-token';
export { decideAuthorization, pendingAuthorization, startAuthorization } from './authorize';
export { type FetchDocument, registerClient } from './clients';
export { invalidRequest, OAuthError } from './errors';
export { authorizationServerMetadata, protectedResourceMetadata } from './metadata';
export type { OAuthServerDeps } from './ports';
export {
  type McpResourceServer,
  mcpChallenge,
  mcpResourceOf,
  principalFromAccessToken,
} from './resource-server';
export { exchangeToken, revokeGrant, revokeToken } from './token';
