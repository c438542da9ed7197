// What the apps use of mcp/oauth/. Inside shared/src, import the files themselves.
export { finishUpstreamConnect, startUpstreamConnect } from './connect';
export { checkIdToken, connectWithIdToken, IdTokenUnusable } from './exchange-target';
export { createMachineTokens, type MachineTokens, targetForMachine } from './machine-target';
export { MachineSignInFailed } from './machine-token';
export type { UpstreamOAuthDeps } from './ports';
export { connectionsPageOf, targetForUser } from './user-target';
