// What the apps use of runtime/. Inside shared/src, import the files themselves.
export { ANALYTICS_LOG_BATCH, createBatchingLedgerWriter } from './batching-writer';
export { CACHE_VERSION_KEYS } from './cache-versions';
export { createScriptRunner, type PipelineReply, type ScriptRunner } from './script-pipeline';
export { createVersionBoard, readVersionsWith, type VersionBoard } from './version-board';
export { createWriteBehind, type WriteBehind } from './write-behind';
