// What the apps use of mcp/. Inside shared/src, import the files themselves.
export type { McpLogRecord, McpLogStore, McpServerTarget, UpstreamMcpConnector } from './ports';
