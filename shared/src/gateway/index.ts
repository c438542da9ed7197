// What the apps use of gateway/. Inside shared/src, import the files themselves.
export { type UsageDeps, usageForKey } from './usage';
export { createWarmCaches, WARM_PARTS, type WarmCaches } from './warm-caches';
