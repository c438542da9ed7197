// What the apps use of mcp/gateway/. Inside shared/src, import the files themselves.
export { handleMcpDelete, handleMcpPost, SESSION_HEADER } from './handle-mcp';
export { decideFromHeaders } from './header-decision';
export { McpRpcError, RPC, rpcErrorBody } from './jsonrpc';
export { handleMcpGet } from './listen-stream';
export type { MethodDeps } from './methods';
export { checkMcpOrigin, type McpOriginPolicy, originPolicyFrom } from './origin-policy';
export { forOneRequest } from './request-targets';
export { createRedisSessionStore } from './sessions';
export { mcpNameOf } from './standard-headers';
