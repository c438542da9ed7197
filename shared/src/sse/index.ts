// What the apps use of sse/. Inside shared/src, import the files themselves.
export { configureSseLimits } from './parser';
