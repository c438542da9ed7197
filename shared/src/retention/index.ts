// What the apps use of retention/. Inside shared/src, import the files themselves.
export { type RetentionDeps, retentionSummary, runRetention } from './run';
