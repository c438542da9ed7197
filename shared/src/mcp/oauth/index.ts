// What the apps use of mcp/oauth/. Inside shared/src, import the files themselves.
export { finishUpstreamConnect, startUpstreamConnect } from './connect';
export { createMachineTokens, type MachineTokens, targetForMachine } from './machine-target';
export type { UpstreamOAuthDeps } from './ports';
export { connectionsPageOf, targetForUser } from './user-target';
