// What the apps use of db/repos/. Inside shared/src, import the files themselves.
export { findApiKeyForAuth } from './api-keys-repo';
export { type AuditRecord, writeAudit } from './audit-repo';
export { loadStoredLimits } from './limits-repo';
export { listUserConnections, upstreamOAuthStore } from './mcp-oauth-repo';
export type { McpServerRow } from './mcp-repo';
export type { ServableModel } from './models-repo';
export { type GrantListing, listGrants, oauthClientStore, oauthGrantStore, oauthUsers } from './oauth-repo';
export { loadSettings } from './settings-repo';
export { storeMarker } from './store-markers-repo';
export { findUserById } from './users-repo';
