// What the apps use of logs/analytics/. Inside shared/src, import the files themselves.
export { createClickHouseAuditMirror } from './audit-mirror';
export { clientReport, errorReport } from './breakdown-report';
export type { AnalyticsStore } from './store';
export { createAnalyticsStore } from './store';
export { clickhouseTargetFor } from './target';
export { costSeries, costStats, usageSeries, usageStats } from './usage-report';
