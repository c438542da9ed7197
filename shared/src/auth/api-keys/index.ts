// What the apps use of auth/api-keys/. Inside shared/src, import the files themselves.
export { createKeyAuthCache } from './auth-cache';
