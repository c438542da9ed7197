// What the apps use of audit/. Inside shared/src, import the files themselves.
export { type AuditMirror, startAuditMirrorJob } from './mirror-job';
export { auditQuerySchema, platformLogQuerySchema, searchAuditLog, searchPlatformLog } from './search';
