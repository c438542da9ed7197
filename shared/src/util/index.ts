// What the apps use of util/. Inside shared/src, import the files themselves.
export { type Background, detached } from './background';
export { type CallDeadline, createCallDeadline } from './call-deadline';
export { withDeadline } from './deadline';
