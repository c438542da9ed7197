// What the apps use of logs/. Inside shared/src, import the files themselves.
export { parseStatusMatch, STATUS_MATCH_PATTERN, type StatusMatch } from './status-match';
