// What the apps use of proxy/. Inside shared/src, import the files themselves.
export type { ByteChannel } from './byte-channel';
export { handleCountTokens } from './count-tokens';
export { handleEmbeddings } from './embeddings';
export { handleModelRequest } from './handle-model-request';
export { createReasoningSeal } from './reasoning-seal';
export { createResponseCache } from './response-cache';
export { proxySettingsOf } from './settings';
export { tokenSettler } from './token-settlement';
export type { ModelEndpoint, ProxyDeps } from './types';
