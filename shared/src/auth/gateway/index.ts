// What the apps use of auth/gateway/. Inside shared/src, import the files themselves.
export { type AuthOptions, authenticateGatewayRequest, type GatewayAuthDeps } from './authenticate';
export { mayUseModel, type Principal } from './principal';
