// What the apps use of metrics/. Inside shared/src, import the files themselves.
export { METRICS, seriesField } from './definitions';
export { createDropReporter } from './dropped';
export { renderExposition } from './exposition';
export {
  droppedSamples,
  droppedSpanSamples,
  exchangeSamples,
  guardrailSamples,
  httpSamples,
  refusalSamples,
} from './samples';
export { ACTIVE_REFRESH_MS, type ActiveHandle, createRedisMetricsStore, type MetricsStore } from './store';
