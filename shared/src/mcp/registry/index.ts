// What the apps use of mcp/registry/. Inside shared/src, import the files themselves.
export { discoverMcpTools } from './discover';
export {
  connectingServerOf,
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  listMcpTools,
  requireMcpServer,
  updateMcpServer,
} from './registry';
export {
  createMcpServerInputSchema,
  createMcpVirtualServerInputSchema,
  MCP_AUTH_TYPES,
  MCP_TRANSPORTS,
  updateMcpServerInputSchema,
  updateMcpVirtualServerInputSchema,
} from './schemas';
export { connectThroughSignIn } from './sign-in-connect';
export { toMcpServerTarget } from './target';
export { designatedHeaders } from './tool-headers';
export {
  createMcpVirtualServer,
  deleteMcpVirtualServer,
  getMcpVirtualServer,
  listMcpVirtualServers,
  updateMcpVirtualServer,
} from './virtual-servers';
