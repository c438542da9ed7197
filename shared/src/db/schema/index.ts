export * from './api-keys';
export * from './limits';
export * from './mcp';
export * from './mcp-logs';
export * from './providers';
export * from './request-logs';
export * from './settings';
export * from './users';
