// What the apps use of keys/. Inside shared/src, import the files themselves.
export { adminKeyListQuerySchema, listAllKeys } from './admin-list';
export { listExpiringKeys } from './expiring';
export { disableInactiveKey, runKeyJobs } from './lifecycle-jobs';
export { createKey, getKey, listKeys, revokeKey, updateKey } from './manage';
export { rotateKey } from './rotate';
export { createKeyInputSchema, expiringQuerySchema, updateKeyInputSchema } from './schemas';
export type { KeyActor, KeysDeps } from './state';
export { createKeyUseRecorder } from './usage';
