export * from './api-keys';
export * from './limits';
export * from './mcp';
export * from './providers';
export * from './settings';
export * from './users';
